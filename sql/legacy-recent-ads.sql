-- The newest active ads of the legacy board, newest first, for RSS and Atom
-- (order = desc, keyset added ad_id: the `added` index walked backwards).
SELECT a.ad_id                                     AS ad_id,
       a.ad_id                                     AS id,
       CONCAT('ad-', a.ad_id)                      AS guid,
       a.title                                     AS title,
       a.text                                      AS description,
       CONCAT(:site_url, '/ad/', a.ad_id, '.html') AS link,
       a.added                                     AS published,
       a.updated                                   AS updated
  FROM ads a
 WHERE a.status = 'active'
   AND a.added <= :after_published
   AND (a.added < :after_published OR a.ad_id < :after_ad_id)
 ORDER BY a.added DESC, a.ad_id DESC
 LIMIT :limit;
