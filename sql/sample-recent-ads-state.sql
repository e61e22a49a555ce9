-- State of the RSS and Atom feeds: the ads they list (the :limit newest,
-- read as the feed reads them, through the `added` index), for
-- Last-Modified, the ETag and the Atom feed's updated.
--   last_modified  the newest change among them
--   ads, n         which ads they are: a hard-deleted ad leaves the window
--                  and the next one enters, which changes the XOR of the
--                  ids (and a window that runs short, the count)
SELECT MAX(r.updated) AS last_modified,
       BIT_XOR(r.id)  AS ads,
       COUNT(*)       AS n
  FROM (SELECT l.id, l.updated
          FROM listing l
         WHERE l.status = 'active'
         ORDER BY l.added DESC, l.id DESC
         LIMIT :limit) r;
