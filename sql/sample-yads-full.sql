-- Yads feed of the sample board, the full dump (a request with no `date`):
-- the same rows and columns as sql/sample-yads.sql in primary-key order,
-- keyset_full = id_key. The table is read in its own order instead of
-- through the `added` index with a primary-key lookup per row.
SELECT l.id                          AS id_key,
       l.ref                         AS id,
       l.title                       AS title,
       l.body                        AS body,
       l.author                      AS author,
       IF(l.kind = 'demand', 2, 1)   AS tip,
       r.name                        AS town,
       l.phone                       AS phone,
       l.email                       AS email,
       l.icq                         AS icq,
       l.photo                       AS photo,
       l.added                       AS added,
       IF(l.days > 0, l.days, 30)    AS period,
       CONCAT(:site_url, '/ad/', l.ref, '.html') AS url
  FROM listing l
  LEFT JOIN region r ON r.region_id = l.region_id
 WHERE l.status = 'active'
   AND l.id > :after_id_key
 ORDER BY l.id
 LIMIT :limit;
