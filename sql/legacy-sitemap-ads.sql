-- Sitemap section of the legacy board's ads (table ads):
-- every active ad's page, by ad_id, the primary key. A part is a range of
-- ad_id (:after_id, :until_id], which the primary key serves directly, so
-- reading part 17 does not read parts 1 to 16.
-- The page's URL is {site.url}/ad/{id}.html, put together by the template
-- (templates/sitemap-by-id.xml): the database sends the id and the date.
SELECT a.ad_id AS id,
       a.updated AS lastmod
  FROM ads a
 WHERE a.status = 'active'
   AND a.ad_id > :after_id
   AND a.ad_id <= :until_id
 ORDER BY a.ad_id
 LIMIT :limit;
