-- State of the Jooble feeds (incremental and full): Last-Modified, the ETag
-- and 304.
--   last_modified  the newest change among the jobs: new, edited and
--                  soft-deleted jobs all stamp the indexed `updated`
--   jobs, id_sum   what a newest change cannot show: a hard-deleted job
--                  lowers the count, and a delete and an insert that keep
--                  the count change the sum (and the insert stamps a newer
--                  `updated`)
--   today          jobs expire by the day
-- It covers the whole table, not the robot's :since: one record of when the
-- state was first seen serves every visit, so If-Modified-Since (the
-- robot's own since) meets it. The count and the sum read the `updated`
-- index once (it holds the id): a pass over the table's smallest index per
-- visit, which is one request, not a page of many.
SELECT MAX(updated)   AS last_modified,
       COUNT(*)       AS jobs,
       SUM(id)        AS id_sum,
       LEFT(:now, 10) AS today
  FROM job;
