-- State of one part of the jobs' sitemap (the range (:after_id, :until_id]
-- of the primary key): Last-Modified and the ETag.
--   last_modified  newest change among the part's listed jobs
--   jobs, id_sum   what a newest change cannot show: a hard-deleted job
--                  lowers the count, and a delete and an insert that keep
--                  the count change the sum
--   today          jobs leave the sitemap when their `expires` day passes
-- One range scan of the part, as the part itself reads.
SELECT MAX(j.updated) AS last_modified,
       COUNT(*)       AS jobs,
       SUM(j.id)      AS id_sum,
       LEFT(:now, 10) AS today
  FROM job j
 WHERE j.status = 'active'
   AND (j.expires IS NULL OR j.expires >= LEFT(:now, 10))
   AND j.id > :after_id
   AND j.id <= :until_id;
