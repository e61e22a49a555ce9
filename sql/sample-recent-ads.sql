-- The newest active ads of the sample board, newest first, for RSS and
-- Atom (order = desc, keyset added id: the `added` index walked backwards).
SELECT l.id                                      AS id_key,
       l.ref                                     AS id,
       CONCAT('ad-', l.id)                       AS guid,
       l.title                                   AS title,
       l.body                                    AS description,
       CONCAT(:site_url, '/ad/', l.ref, '.html') AS link,
       l.added                                   AS published,
       l.updated                                 AS updated
  FROM listing l
 WHERE l.status = 'active'
   AND l.added <= :after_published
   AND (l.added < :after_published OR l.id < :after_id_key)
 ORDER BY l.added DESC, l.id DESC
 LIMIT :limit;
