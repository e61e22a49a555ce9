-- Newest change and number of active ads in a part's range.
SELECT MAX(l.updated) AS last_modified,
       COUNT(*)       AS ads
  FROM listing l
 WHERE l.status = 'active'
   AND l.id > :after_id
   AND l.id <= :until_id;
