-- The newest change among the ads the feed lists (the :limit newest), and
-- which ads they are: Last-Modified, ETag and the Atom feed's updated.
SELECT MAX(r.updated) AS last_modified,
       BIT_XOR(r.id)  AS ads,
       COUNT(*)       AS n
  FROM (SELECT l.id, l.updated
          FROM listing l
         WHERE l.status = 'active'
         ORDER BY l.added DESC, l.id DESC
         LIMIT :limit) r;
