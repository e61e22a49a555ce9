-- Every open job of the sample board, for the job aggregators that take the
-- whole list on every fetch (Indeed, Careerjet, Trovit: since = none): no
-- resumes, none past its `expires` day, in primary-key order. The first of
-- `regions` ('Київ, Харків') is the job's city: the board keeps no region
-- (state) apart.
SELECT j.id                                       AS id,
       CONCAT(:site_url, '/job/', j.id, '.html')  AS link,
       j.title                                    AS title,
       TRIM(SUBSTRING_INDEX(SUBSTRING_INDEX(j.regions, ',', 1), ';', 1)) AS city,
       ''                                         AS state,
       j.company                                  AS company,
       j.description                              AS description,
       j.salary                                   AS salary,
       j.created                                  AS created
  FROM job j
 WHERE j.status = 'active'
   AND j.is_resume = 0
   AND (j.expires IS NULL OR j.expires >= DATE(:now))
   AND j.id > :after_id
 ORDER BY j.id
 LIMIT :limit;
