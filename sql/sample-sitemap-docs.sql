-- Sitemap section of the sample board's documents (table document): every
-- active document's page, by id.
SELECT d.id                                       AS id,
       CONCAT(:site_url, '/file/', d.id, '.html') AS loc,
       LEAST(d.updated, :now)                     AS lastmod
  FROM document d
 WHERE d.status = 'active'
   AND d.id > :after_id
   AND d.id <= :until_id
 ORDER BY d.id
 LIMIT :limit;
