-- The index the Baidu document sitemap needs on the legacy board: each
-- document's comments read by a range scan (per chunk of documents, and
-- the comment count per document) instead of a scan of the whole table.
-- Safe to run again.
CREATE INDEX IF NOT EXISTS file_created ON file_comment (file_id, created);
