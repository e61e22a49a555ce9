-- Newest change and number of listed jobs in a part's range.
SELECT MAX(v.modified) AS last_modified,
       COUNT(*)        AS jobs,
       LEFT(:now, 10)  AS today
  FROM vacancy v
 WHERE v.status = 'active'
   AND (v.valid_till IS NULL OR v.valid_till >= LEFT(:now, 10))
   AND v.vac_id > :after_id
   AND v.vac_id <= :until_id;
