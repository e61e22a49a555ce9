-- Newest change and number of listed jobs in a part's range.
SELECT MAX(j.updated) AS last_modified,
       COUNT(*)       AS jobs,
       LEFT(:now, 10) AS today
  FROM job j
 WHERE j.status = 'active'
   AND (j.expires IS NULL OR j.expires >= LEFT(:now, 10))
   AND j.id > :after_id
   AND j.id <= :until_id;
