-- Yads feed of the sample board (sql/sample-board.sql).
-- Active ads added at or after :since, in keyset order (added, id): the
-- `added` index serves both the since-range and the order (InnoDB keeps the
-- primary key in it), so a recent :since reads only the new rows and each
-- page starts where the last one ended.
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
   AND l.added >= :since
   AND l.added >= :after_added
   AND (l.added > :after_added OR l.id > :after_id_key)
 ORDER BY l.added, l.id
 LIMIT :limit;
