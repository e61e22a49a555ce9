-- State of one part of the sample board's documents sitemap (the range
-- (:after_id, :until_id]): newest change, count and id sum.
SELECT MAX(d.updated) AS last_modified,
       COUNT(*)       AS documents,
       SUM(d.id)      AS id_sum
  FROM document d
 WHERE d.status = 'active'
   AND d.id > :after_id
   AND d.id <= :until_id;
