-- Sitemap section of the legacy board's jobs (table vacancy): active
-- vacancies and resumes not past their valid_till day (site time), by
-- vac_id.
SELECT v.vac_id                                          AS id,
       CONCAT(:site_url, '/vacancy/', v.vac_id, '.html') AS loc,
       v.modified                                        AS lastmod
  FROM vacancy v
 WHERE v.status = 'active'
   AND (v.valid_till IS NULL OR v.valid_till >= LEFT(:now, 10))
   AND v.vac_id > :after_id
   AND v.vac_id <= :until_id
 ORDER BY v.vac_id
 LIMIT :limit;
