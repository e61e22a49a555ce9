-- The newest change among the ads the feed lists (the :limit newest), and
-- which ads they are: Last-Modified, ETag and the Atom feed's updated.
SELECT MAX(r.updated) AS last_modified,
       BIT_XOR(r.ad_id) AS ads,
       COUNT(*) AS n
  FROM (SELECT a.ad_id, a.updated
          FROM ads a
         WHERE a.status = 'active'
         ORDER BY a.added DESC, a.ad_id DESC
         LIMIT :limit) r;
