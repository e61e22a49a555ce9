-- Every open vacancy of the legacy board, for the job aggregators that take
-- the whole list on every fetch (Indeed, Careerjet, Trovit: since = none):
-- no resumes, none past its valid_till day, in primary-key order. The
-- first city of city_list ('Киев, Харьков') is the job's city: the board
-- keeps no region (state) apart.
SELECT v.vac_id                                           AS id,
       CONCAT(:site_url, '/vacancy/', v.vac_id, '.html')  AS link,
       v.title                                            AS title,
       TRIM(SUBSTRING_INDEX(SUBSTRING_INDEX(v.city_list, ',', 1), ';', 1)) AS city,
       ''                                                 AS state,
       v.company                                          AS company,
       v.descr                                            AS description,
       v.salary                                           AS salary,
       v.created                                          AS created
  FROM vacancy v
 WHERE v.status = 'active'
   AND v.is_resume = 0
   AND (v.valid_till IS NULL OR v.valid_till >= DATE(:now))
   AND v.vac_id > :after_id
 ORDER BY v.vac_id
 LIMIT :limit;
