-- State of one page of the Yads feed's full dump (sql/sample-yads-full.sql):
-- as sql/sample-yads-state.sql, over the rows that page reads, in
-- primary-key order.
SELECT MAX(p.updated) AS last_modified,
       COUNT(*)       AS ads,
       SUM(p.id)      AS id_sum
  FROM (SELECT l.id, l.updated
          FROM listing l
         WHERE l.status = 'active'
           AND l.id > :after_id_key
         ORDER BY l.id
         LIMIT :limit) p;
