-- State of one part of the sample board's Baidu document sitemap (the
-- range (:after_id, :until_id]): the newest change among its active
-- documents and their comments, and counts and id sums of both (a hard
-- delete moves them). A renamed member does not show (no change time).
SELECT NULLIF(GREATEST(COALESCE(MAX(d.updated), '1000-01-01 00:00:00'),
                       COALESCE(MAX(c.newest), '1000-01-01 00:00:00')), '1000-01-01 00:00:00') AS last_modified,
       COUNT(*)      AS documents,
       SUM(d.id)     AS id_sum,
       MAX(c.n)      AS comments,
       MAX(c.id_sum) AS cm_sum
  FROM document d
  JOIN (SELECT MAX(created) AS newest, COUNT(*) AS n, SUM(id) AS id_sum
          FROM document_comment
         WHERE document_id > :after_id AND document_id <= :until_id) c
 WHERE d.status = 'active'
   AND d.id > :after_id
   AND d.id <= :until_id;
