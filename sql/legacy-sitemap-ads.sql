-- Sitemap section of the legacy board's ads (../shared/board, table ads):
-- every active ad's page, by ad_id, the primary key. A part is a range of
-- ad_id (:after_id, :until_id], which the primary key serves directly, so
-- reading part 17 does not read parts 1 to 16.
SELECT a.ad_id                                     AS id,
       CONCAT(:site_url, '/ad/', a.ad_id, '.html') AS loc,
       a.updated                                   AS lastmod
  FROM ads a
 WHERE a.status = 'active'
   AND a.ad_id > :after_id
   AND a.ad_id <= :until_id
 ORDER BY a.ad_id
 LIMIT :limit;
