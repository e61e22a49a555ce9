-- Sitemap section of the sample board's jobs (table job): active jobs and
-- resumes not past their expiry day (site time), by id.
SELECT j.id                                      AS id,
       CONCAT(:site_url, '/job/', j.id, '.html') AS loc,
       LEAST(j.updated, :now)                    AS lastmod
  FROM job j
 WHERE j.status = 'active'
   AND (j.expires IS NULL OR j.expires >= LEFT(:now, 10))
   AND j.id > :after_id
   AND j.id <= :until_id
 ORDER BY j.id
 LIMIT :limit;
