-- Yads feed of the legacy board (table ads).
-- Same rows as php/yads.php (active ads added at or after :since) but in
-- keyset order (added, ad_id), which the `added` index serves. The robot
-- works out expiry from date and period; days = 0 means the board's default
-- of 30 days. The contact flags are computed here (the template's `flag`
-- reads 0 as none), which asks the server for less than yads.php does.
SELECT a.ad_id                        AS ad_id,
       a.ad_id                        AS id,
       a.title                        AS title,
       a.text                         AS body,
       a.author                       AS author,
       a.kind                         AS tip,
       c.name                         AS town,
       TRIM(a.phone) <> ''           AS phone,   -- flags made here: one
       TRIM(a.email) <> ''           AS email,   -- byte a row instead of
       TRIM(a.icq) <> ''             AS icq,     -- the whole strings
       a.photo <> ''                 AS photo,
       a.added                        AS added,
       IF(a.days > 0, a.days, 30)     AS period,
       CONCAT(:site_url, '/ad/', a.ad_id, '.html') AS url
  FROM ads a
  LEFT JOIN city c ON c.city_id = a.city_id
 WHERE a.status = 'active'
   AND a.added >= :since
   AND a.added >= :after_added
   AND (a.added > :after_added OR a.ad_id > :after_ad_id)
 ORDER BY a.added, a.ad_id
 LIMIT :limit;
