-- Jooble feed of the legacy board (table
-- vacancy), incremental: active vacancies and resumes created or modified
-- at or after :since (`modified` is set on insert too, so one indexed
-- condition covers both, where jooble.php's `created >= ? OR modified >= ?`
-- scans the table), up to :now. Keyset (modified, vac_id).
SELECT v.vac_id                                         AS id,
       v.modified                                       AS updated,
       CONCAT(:site_url, '/vacancy/', v.vac_id, '.html') AS link,
       v.title                                          AS name,
       v.city_list                                      AS region,
       v.salary                                         AS salary,
       v.company                                        AS company,
       v.company_about                                  AS companyinfo,
       v.descr                                          AS description,
       v.contacts                                       AS contacts,
       v.valid_till                                     AS expire,
       v.created                                        AS created
  FROM vacancy v
 WHERE v.status = 'active'
   AND v.modified >= :since
   AND v.modified <= :now
   AND v.modified >= :after_updated
   AND (v.modified > :after_updated OR v.vac_id > :after_id)
 ORDER BY v.modified, v.vac_id
 LIMIT :limit;
