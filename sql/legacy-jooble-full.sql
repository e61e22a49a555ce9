-- Jooble feed of the legacy board, a full visit (the robot's first, or
-- one with no record): the same rows and columns as sql/legacy-jooble.sql,
-- walked in primary-key order with a keyset on vac_id alone
-- (keyset_full = id). The server reads the table in its own order instead
-- of the `modified` index plus a primary-key lookup per row. A vacancy
-- changed during the visit has modified > :now and comes in the next
-- visit, as in the incremental walk.
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
   AND v.modified <= :now
   AND v.vac_id > :after_id
 ORDER BY v.vac_id
 LIMIT :limit;
