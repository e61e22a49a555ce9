-- Jooble feed of the sample board, incremental: active vacancies and
-- resumes added or changed at or after :since (the robot's last visit;
-- `updated` is set on insert too, so it covers both), up to :now, the
-- moment the feed is taken: a job changed while the feed is written comes
-- next time instead of twice. Keyset (updated, id) on the `updated` index.
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
   AND j.updated >= :since
   AND j.updated <= :now
   AND j.updated >= :after_updated
   AND (j.updated > :after_updated OR j.id > :after_id)
 ORDER BY j.updated, j.id
 LIMIT :limit;
