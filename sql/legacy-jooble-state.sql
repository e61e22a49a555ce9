-- State of the legacy board's Jooble feed (table vacancy): Last-Modified,
-- the ETag and 304.
--   last_modified  the newest change (`modified`, indexed, set on insert,
--                  edit and soft deletion)
--   jobs, id_sum   what a newest change cannot show: a hard-deleted vacancy
--                  lowers the count, and a delete and an insert that keep
--                  the count change the sum
--   today          vacancies expire by the day
-- The whole table, not the robot's :since, so that one record of when the
-- state was first seen serves every visit; the count and the sum read the
-- `modified` index once (it holds vac_id).
SELECT MAX(modified)  AS last_modified,
       COUNT(*)       AS jobs,
       SUM(vac_id)    AS id_sum,
       LEFT(:now, 10) AS today
  FROM vacancy;
