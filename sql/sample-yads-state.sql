-- State of one page of the Yads feed: Last-Modified and the ETag (a weak
-- one: every body holds its run's moment). It reads the rows the page
-- reads, the same WHERE, order and range (:limit is the page size plus the
-- one row that tells whether a continue token follows), through the same
-- `added` index, so it costs a fraction of the page itself whatever the
-- size of the board; a state over the whole table would read every row on
-- every page.
--   last_modified  newest change among them: new ads, edits and soft
--                  deletions stamp `updated`
--   ads, id_sum    what a newest change cannot show: a hard-deleted row
--                  lowers the count (the next row moving into a full window
--                  keeps the count but changes the sum); a delete and an
--                  insert that keep the count change the sum too, and the
--                  insert stamps a newer `updated` unless it is back-dated.
--                  A sum needs no more reading than the count (the id is in
--                  every index); a CRC32 of whole rows would read them all.
SELECT MAX(p.updated) AS last_modified,
       COUNT(*)       AS ads,
       SUM(p.id)      AS id_sum
  FROM (SELECT l.id, l.updated
          FROM listing l
         WHERE l.status = 'active'
           AND l.added >= :since
           AND l.added >= :after_added
           AND (l.added > :after_added OR l.id > :after_id_key)
         ORDER BY l.added, l.id
         LIMIT :limit) p;
