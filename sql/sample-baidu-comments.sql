-- Child query `comments` of the sample board's Baidu documents: for the
-- documents of one chunk (id in (:after_id, :until_id]), the newest
-- :max_per_parent comments of each, oldest first; one query per chunk, a
-- range scan of document_comment's (document_id, created) index. A comment
-- whose author is gone keeps its text and time (creator NULL).
SELECT c.document_id AS parent,
       c.body        AS body,
       m.login       AS creator,
       c.created     AS created
  FROM (SELECT c.id, c.document_id, c.member_id, c.body, c.created,
               ROW_NUMBER() OVER (PARTITION BY c.document_id ORDER BY c.created DESC, c.id DESC) AS newest
          FROM document_comment c
         WHERE c.document_id > :after_id
           AND c.document_id <= :until_id) c
  LEFT JOIN member m ON m.id = c.member_id
 WHERE c.newest <= :max_per_parent
 ORDER BY c.document_id, c.created, c.id;
