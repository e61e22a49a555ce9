-- The legacy board's ads for MSN (lifecycle = msn, keyset id): every ad the
-- board shows, that is active and within its period, in id order. An ad's
-- end is `added` plus its `days` in calendar days of the site's zone (30
-- when days = 0, as the Yads mapping says); an ad past it is not shown. The
-- engine fingerprints what the template renders of each row, so `updated`
-- (which a view or a paid raise bumps) is not selected.
SELECT a.ad_id                                           AS id,
       a.title                                           AS title,
       a.text                                            AS description,
       CONCAT(:site_url, '/ad/', a.ad_id, '.html')       AS link,
       a.added                                           AS published,
       c.name                                            AS town,
       IF(a.photo <> '', CONCAT(:site_url, '/photo/', a.photo), '') AS picture,
       a.added + INTERVAL IF(a.days > 0, a.days, 30) DAY AS ends
  FROM ads a
  LEFT JOIN city c ON c.city_id = a.city_id
 WHERE a.status = 'active'
   AND a.added + INTERVAL IF(a.days > 0, a.days, 30) DAY > :now
   AND a.ad_id > :after_id AND a.ad_id <= :until_id
 ORDER BY a.ad_id
 LIMIT :limit;
