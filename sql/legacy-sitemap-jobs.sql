-- Sitemap section of the legacy board's jobs (table vacancy): active
-- vacancies and resumes not past their valid_till day (site time), by
-- vac_id.
-- The page's URL is {site.url}/vacancy/{id}.html, put together by the template
-- (templates/sitemap-by-id.xml): the database sends the id and the date.
SELECT v.vac_id AS id,
       v.modified AS lastmod
  FROM vacancy v
 WHERE v.status = 'active'
   AND (v.valid_till IS NULL OR v.valid_till >= LEFT(:now, 10))
   AND v.vac_id > :after_id
   AND v.vac_id <= :until_id
 ORDER BY v.vac_id
 LIMIT :limit;
