-- Newest change and number of active ads in a part's range (a deleted ad
-- changes the count): Last-Modified and ETag of that part.
SELECT MAX(a.updated) AS last_modified,
       COUNT(*)       AS ads
  FROM ads a
 WHERE a.status = 'active'
   AND a.ad_id > :after_id
   AND a.ad_id <= :until_id;
