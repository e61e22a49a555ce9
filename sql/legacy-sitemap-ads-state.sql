-- State of one part of the legacy board's ads sitemap (the range
-- (:after_id, :until_id] of the primary key): Last-Modified and the ETag.
--   last_modified  newest change among the part's active ads
--   ads, id_sum    what a newest change cannot show: a hard-deleted ad
--                  lowers the count, and a delete and an insert that keep
--                  the count change the sum
-- One range scan of the part, as the part itself reads.
SELECT MAX(a.updated) AS last_modified,
       COUNT(*)       AS ads,
       SUM(a.ad_id)   AS id_sum
  FROM ads a
 WHERE a.status = 'active'
   AND a.ad_id > :after_id
   AND a.ad_id <= :until_id;
