-- State of one part of the legacy board's documents sitemap (the range
-- (:after_id, :until_id] of the primary key): Last-Modified and the ETag.
--   last_modified  newest change among the part's active documents
--   files, id_sum  what a newest change cannot show: a hard-deleted
--                  document lowers the count, and a delete and an insert
--                  that keep the count change the sum
-- One range scan of the part, as the part itself reads.
SELECT MAX(f.updated) AS last_modified,
       COUNT(*)       AS files,
       SUM(f.file_id) AS id_sum
  FROM files f
 WHERE f.status = 'active'
   AND f.file_id > :after_id
   AND f.file_id <= :until_id;
