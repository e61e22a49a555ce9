-- The newest change to any ad (new ads, edits and deletions all stamp
-- `updated`, which is indexed): Last-Modified and the ETag of the Yads feed.
SELECT MAX(updated) AS last_modified
  FROM listing;
