-- Newest change and number of active documents in a part's range.
SELECT MAX(f.updated) AS last_modified,
       COUNT(*)       AS files
  FROM files f
 WHERE f.status = 'active'
   AND f.file_id > :after_id
   AND f.file_id <= :until_id;
