-- State of one part of the legacy board's jobs sitemap (the range
-- (:after_id, :until_id] of the primary key): Last-Modified and the ETag.
--   last_modified  newest change among the part's listed jobs
--   jobs, id_sum   what a newest change cannot show: a hard-deleted job
--                  lowers the count, and a delete and an insert that keep
--                  the count change the sum
--   today          jobs leave the sitemap when their valid_till day passes
-- One range scan of the part, as the part itself reads.
SELECT MAX(v.modified) AS last_modified,
       COUNT(*)        AS jobs,
       SUM(v.vac_id)   AS id_sum,
       LEFT(:now, 10)  AS today
  FROM vacancy v
 WHERE v.status = 'active'
   AND (v.valid_till IS NULL OR v.valid_till >= LEFT(:now, 10))
   AND v.vac_id > :after_id
   AND v.vac_id <= :until_id;
