-- The sample board's ads for MSN (lifecycle = msn, keyset id): every ad the
-- board shows, that is active and within its period, in id order. An ad's
-- end is `added` plus its `days` in calendar days of the site's zone (30
-- when days = 0); an ad past it is not shown. `updated` is not selected:
-- the engine fingerprints what the template renders of each row.
SELECT l.id                                              AS id,
       l.title                                           AS title,
       l.body                                            AS description,
       CONCAT(:site_url, '/ad/', l.ref, '.html')         AS link,
       l.added                                           AS published,
       r.name                                            AS town,
       IF(l.photo <> '', CONCAT(:site_url, '/photo/', l.photo), '') AS picture,
       l.added + INTERVAL IF(l.days > 0, l.days, 30) DAY AS ends
  FROM listing l
  LEFT JOIN region r ON r.region_id = l.region_id
 WHERE l.status = 'active'
   AND l.added + INTERVAL IF(l.days > 0, l.days, 30) DAY > :now
   AND l.id > :after_id AND l.id <= :until_id
 ORDER BY l.id
 LIMIT :limit;
