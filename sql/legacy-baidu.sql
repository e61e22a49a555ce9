-- Baidu document sitemap of the legacy board (templates/baidu.xml): every
-- active document of `files`, by file_id (a part is the range
-- (:after_id, :until_id]). Aggregates are SQL: the comment count (every
-- comment; the feed shows the newest child.comments.max of them), the mean
-- vote rounded half away from zero (ROUND of a DECIMAL), NULLs where a
-- document has no votes or its uploader is gone. The comment count reads
-- the index of sql/legacy-baidu-index.sql.
SELECT f.file_id                                          AS id,
       CONCAT(:site_url, '/file/', f.file_id, '.html')    AS loc,
       f.updated                                          AS lastmod,
       f.category_path                                    AS breadcrumb,
       CONCAT(f.name, IF(f.ext <> '', CONCAT('.', f.ext), '')) AS name,
       f.summary                                          AS description,
       f.genre                                            AS genre,
       f.ext                                              AS ext,
       f.size_bytes                                       AS size_bytes,
       f.coins                                            AS coins,
       u.login                                            AS provider_name,
       IF(u.user_id IS NULL, NULL, CONCAT(:site_url, '/user/', u.user_id)) AS provider_url,
       f.uploaded                                         AS published,
       f.downloads                                        AS downloads,
       f.favorites                                        AS favorites,
       f.likes                                            AS likes,
       f.shares                                           AS shares,
       (SELECT COUNT(*) FROM file_comment c WHERE c.file_id = f.file_id) AS comment_count,
       f.tags                                             AS tags,
       CONCAT(:site_url, '/download/', f.file_id)         AS download_urls,
       IF(f.rating_count > 0, ROUND(f.rating_sum / f.rating_count), NULL) AS rating_value,
       NULLIF(f.rating_count, 0)                          AS rating_count
  FROM files f
  LEFT JOIN users u ON u.user_id = f.uploader_id
 WHERE f.status = 'active'
   AND f.file_id > :after_id
   AND f.file_id <= :until_id
 ORDER BY f.file_id
 LIMIT :limit;
