-- Child query `comments` of the legacy board's Baidu documents: for the
-- documents of one chunk (file_id in (:after_id, :until_id]), the newest
-- :max_per_parent comments of each (child.comments.max), oldest first.
-- One query per chunk of documents, a range scan of the index of
-- sql/legacy-baidu-index.sql. A comment whose author is gone keeps its
-- text and time (creator NULL).
SELECT c.file_id   AS parent,
       c.body      AS body,
       u.login     AS creator,
       c.created   AS created
  FROM (SELECT c.comment_id, c.file_id, c.user_id, c.body, c.created,
               ROW_NUMBER() OVER (PARTITION BY c.file_id ORDER BY c.created DESC, c.comment_id DESC) AS newest
          FROM file_comment c
         WHERE c.file_id > :after_id
           AND c.file_id <= :until_id) c
  LEFT JOIN users u ON u.user_id = c.user_id
 WHERE c.newest <= :max_per_parent
 ORDER BY c.file_id, c.created, c.comment_id;
