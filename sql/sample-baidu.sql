-- Baidu document sitemap of the sample board (templates/baidu.xml): every
-- active document, by id (a part is the range (:after_id, :until_id]).
-- Download URLs: the site's own (when the upload completed) and the
-- document's mirrors, '|'-separated; a document with none is left out.
-- Aggregates are SQL: the comment count (all of them; the feed shows the
-- newest child.comments.max), the mean vote rounded half away from zero,
-- NULL where there are no votes or the uploader is gone.
SELECT d.id                                               AS id,
       CONCAT(:site_url, '/file/', d.id, '.html')         AS loc,
       d.updated                                          AS lastmod,
       d.category                                         AS breadcrumb,
       CONCAT(d.title, IF(d.ext <> '', CONCAT('.', d.ext), '')) AS name,
       d.summary                                          AS description,
       d.genre                                            AS genre,
       d.ext                                              AS ext,
       d.size_bytes                                       AS size_bytes,
       d.coins                                            AS coins,
       m.login                                            AS provider_name,
       IF(m.id IS NULL, NULL, CONCAT(:site_url, '/user/', m.id)) AS provider_url,
       d.uploaded                                         AS published,
       d.downloads                                        AS downloads,
       d.favorites                                        AS favorites,
       d.likes                                            AS likes,
       d.shares                                           AS shares,
       (SELECT COUNT(*) FROM document_comment c WHERE c.document_id = d.id) AS comment_count,
       d.tags                                             AS tags,
       CONCAT_WS('|', IF(d.stored, CONCAT(:site_url, '/download/', d.id), NULL), NULLIF(d.mirrors, ''))
                                                          AS download_urls,
       IF(d.rating_count > 0, ROUND(d.rating_sum / d.rating_count), NULL) AS rating_value,
       NULLIF(d.rating_count, 0)                          AS rating_count
  FROM document d
  LEFT JOIN member m ON m.id = d.member_id
 WHERE d.status = 'active'
   AND d.id > :after_id
   AND d.id <= :until_id
 ORDER BY d.id
 LIMIT :limit;
