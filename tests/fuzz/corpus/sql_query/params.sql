SELECT id, title FROM ads
WHERE added > :since AND added <= :now
  AND (added, id) > (:after_added, :after_id)
ORDER BY added, id LIMIT :limit
