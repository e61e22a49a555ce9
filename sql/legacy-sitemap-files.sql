-- Sitemap section of the legacy board's document library (table files):
-- every active document's page, by file_id.
SELECT f.file_id                                     AS id,
       CONCAT(:site_url, '/file/', f.file_id, '.html') AS loc,
       f.updated                                     AS lastmod
  FROM files f
 WHERE f.status = 'active'
   AND f.file_id > :after_id
   AND f.file_id <= :until_id
 ORDER BY f.file_id
 LIMIT :limit;
