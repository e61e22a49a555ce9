-- Yads feed of the legacy board, the full dump (a request with no `date`):
-- the same rows and columns as sql/legacy-yads.sql, walked in primary-key
-- order with a keyset on ad_id alone (keyset_full = ad_id), as yads.php
-- does. The server reads the table in its own order instead of the `added`
-- index plus a primary-key lookup per row. Rows added during a run have
-- higher ids and come at its end; none is lost or sent twice.
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
   AND a.ad_id > :after_ad_id
 ORDER BY a.ad_id
 LIMIT :limit;
