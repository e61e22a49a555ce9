-- Jooble feed of the sample board, full: every current job on each fetch
-- (Jooble's current documentation), leaving out jobs whose `expires` day
-- has passed. Keyset: the primary key.
SELECT j.id                                      AS id,
       j.updated                                 AS updated,
       CONCAT(:site_url, '/job/', j.id, '.html') AS link,
       j.title                                   AS name,
       j.regions                                 AS region,
       j.salary                                  AS salary,
       j.company                                 AS company,
       j.company_info                            AS companyinfo,
       j.description                             AS description,
       j.contacts                                AS contacts,
       j.expires                                 AS expire,
       j.created                                 AS created
  FROM job j
 WHERE j.status = 'active'
   AND (j.expires IS NULL OR j.expires >= DATE(:now))
   AND j.id > :after_id
 ORDER BY j.id
 LIMIT :limit;
