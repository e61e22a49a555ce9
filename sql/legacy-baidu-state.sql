-- State of one part of the legacy board's Baidu document sitemap (the
-- range (:after_id, :until_id]): Last-Modified and the ETag.
--   last_modified     newest change among the part's active documents and
--                     their comments
--   files, id_sum     what a newest change cannot show: a hard-deleted
--   comments, cm_sum  document or comment
-- A renamed uploader or comment author does not show here (the users
-- table has no change time): such a change waits for the next edit.
SELECT NULLIF(GREATEST(COALESCE(MAX(f.updated), '1000-01-01 00:00:00'),
                       COALESCE(MAX(c.newest), '1000-01-01 00:00:00')), '1000-01-01 00:00:00') AS last_modified,
       COUNT(*)       AS files,
       SUM(f.file_id) AS id_sum,
       MAX(c.n)       AS comments,
       MAX(c.id_sum)  AS cm_sum
  FROM files f
  JOIN (SELECT MAX(created) AS newest, COUNT(*) AS n, SUM(comment_id) AS id_sum
          FROM file_comment
         WHERE file_id > :after_id AND file_id <= :until_id) c
 WHERE f.status = 'active'
   AND f.file_id > :after_id
   AND f.file_id <= :until_id;
