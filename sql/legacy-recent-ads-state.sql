-- State of the legacy board's RSS and Atom feeds: the ads they list (the
-- :limit newest), for Last-Modified, the ETag and the Atom feed's updated.
--   last_modified  the newest change among them
--   ads, n         which ads they are: a hard-deleted ad leaves the window
--                  and the next one enters, which changes the XOR of the
--                  ids (and a window that runs short, the count)
SELECT MAX(r.updated) AS last_modified,
       BIT_XOR(r.ad_id) AS ads,
       COUNT(*) AS n
  FROM (SELECT a.ad_id, a.updated
          FROM ads a
         WHERE a.status = 'active'
         ORDER BY a.added DESC, a.ad_id DESC
         LIMIT :limit) r;
