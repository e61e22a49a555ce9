-- Sitemap section of the legacy board's document library (table files):
-- every active document's page, by file_id.
-- The page's URL is {site.url}/file/{id}.html, put together by the template
-- (templates/sitemap-by-id.xml): the database sends the id and the date.
SELECT f.file_id AS id,
       f.updated AS lastmod
  FROM files f
 WHERE f.status = 'active'
   AND f.file_id > :after_id
   AND f.file_id <= :until_id
 ORDER BY f.file_id
 LIMIT :limit;
