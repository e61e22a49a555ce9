-- Sitemap section of the sample board's ads (table listing): every active
-- ad's page, by id (the primary key; a part is the range
-- (:after_id, :until_id]). The page's address carries the ad's public ref.
SELECT l.id                                      AS id,
       CONCAT(:site_url, '/ad/', l.ref, '.html') AS loc,
       LEAST(l.updated, :now)                    AS lastmod
  FROM listing l
 WHERE l.status = 'active'
   AND l.id > :after_id
   AND l.id <= :until_id
 ORDER BY l.id
 LIMIT :limit;
