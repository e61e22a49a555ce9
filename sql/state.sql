-- Tables feed.fcgi itself owns, in the board's database. Safe to run again.
--   mariadb board < sql/state.sql
--   GRANT SELECT, INSERT, UPDATE ON board.feed_robot_visit TO 'feeds'@'localhost';
--   GRANT SELECT, INSERT, UPDATE ON board.feed_part_plan TO 'feeds'@'localhost';
--   GRANT SELECT, INSERT, UPDATE, DELETE ON board.feed_state_seen TO 'feeds'@'localhost';
-- (the feed user needs only SELECT on the board's own tables).

-- Each robot's last two visits of each feed (Jooble's incremental feed):
-- the moments the feeds it received were taken, site time. A visit is
-- recorded once its response was handed over whole; with overlap_visits = 1
-- (the default) the next visit sends what changed since the visit before
-- the last, so a visit cut where the program cannot see it loses nothing.
CREATE TABLE IF NOT EXISTS feed_robot_visit (
  robot           VARCHAR(64) NOT NULL,   -- the config's `since = robot NAME`
  feed            VARCHAR(64) NOT NULL,   -- the [feed NAME]
  last_visit      DATETIME NOT NULL,
  previous_visit  DATETIME NULL,          -- the one before it
  recorded        DATETIME NOT NULL,      -- when it was written
  PRIMARY KEY (robot, feed)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
-- (a table made by an earlier version gains the column)
ALTER TABLE feed_robot_visit ADD COLUMN IF NOT EXISTS previous_visit DATETIME NULL AFTER last_visit;

-- The parts of each live document set (sitemaps): for every section feed,
-- the keyset range each numbered part serves, so that a crawler that
-- fetched the index gets the same ranges when it fetches the parts minutes
-- or hours later. Ranges, once made, never move; only the open last part
-- is closed when it fills and a new one opens after it. `parts` holds one
-- line per part (see lib/state.cpp); `planned` is when it was last
-- refreshed (Unix seconds).
CREATE TABLE IF NOT EXISTS feed_part_plan (
  feed      VARCHAR(64) NOT NULL,     -- the section's [feed NAME]
  identity  CHAR(16) NOT NULL,        -- the mapping and limits it was made for
  planned   BIGINT NOT NULL,
  parts     MEDIUMTEXT NOT NULL,
  PRIMARY KEY (feed)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

-- When each feed's current state was first seen, for Last-Modified. A
-- state query's newest change (MAX(updated)) does not move when a row is
-- hard-deleted, but its count or checksum does: the engine then records
-- the moment it first saw the new state, and Last-Modified is the later of
-- the two, so that If-Modified-Since cannot answer 304 for a feed that lost
-- a row. One record per feed and scope (which rows the state covers: a
-- part's range, a `date`); written only when the state changes, at most
-- 10,000 per feed (the oldest goes first).
CREATE TABLE IF NOT EXISTS feed_state_seen (
  feed        VARCHAR(64) NOT NULL,   -- the [feed NAME] or [set NAME]
  scope       CHAR(16) NOT NULL,      -- a hash of the range the state covers
  state       CHAR(16) NOT NULL,      -- a hash of the state query's row
  first_seen  BIGINT NOT NULL,        -- Unix seconds
  PRIMARY KEY (feed, scope),
  KEY oldest (feed, first_seen)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
