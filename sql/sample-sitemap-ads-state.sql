-- State of one part of the ads' sitemap (the range (:after_id, :until_id]
-- of the primary key, at most 50,000 rows): Last-Modified and the ETag.
--   last_modified  newest change among the part's active ads
--   ads, id_sum    what a newest change cannot show: a hard-deleted ad
--                  lowers the count, and a delete and an insert that keep
--                  the count change the sum
-- One range scan of the part, as the part itself reads.
SELECT MAX(l.updated) AS last_modified,
       COUNT(*)       AS ads,
       SUM(l.id)      AS id_sum
  FROM listing l
 WHERE l.status = 'active'
   AND l.id > :after_id
   AND l.id <= :until_id;
