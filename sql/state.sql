-- Tables feed.fcgi itself owns, in the board's database. Safe to run again.
-- `feed.fcgi install` makes the same tables with the feed user's own account
-- (CREATE, ALTER, INDEX; lib/state_tables.cpp holds them, and a test keeps
-- the two alike); this file is for an administrator:
--   mariadb board < sql/state.sql
--   GRANT SELECT, INSERT, UPDATE ON board.feed_robot_visit TO 'feeds'@'localhost';
--   GRANT SELECT, INSERT, UPDATE ON board.feed_part_plan TO 'feeds'@'localhost';
--   GRANT SELECT, INSERT, UPDATE, DELETE ON board.feed_state_seen TO 'feeds'@'localhost';
--   GRANT SELECT, INSERT, UPDATE, DELETE ON board.feed_item_state TO 'feeds'@'localhost';
--   GRANT SELECT, INSERT, UPDATE ON board.feed_item_sync TO 'feeds'@'localhost';
--   GRANT SELECT, INSERT, DELETE ON board.feed_run_report TO 'feeds'@'localhost';  (the status page)
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
-- refreshed (Unix seconds). With replicas, `position` is "PLANNED GTID":
-- the replication position the plan's rows were read at, for the plan of
-- that `planned` moment; a part is read only from a server that has
-- reached it. A position of another moment (a plan an older version wrote
-- over) or none ('') sends the parts to the primary until the next refresh.
CREATE TABLE IF NOT EXISTS feed_part_plan (
  feed      VARCHAR(64) NOT NULL,     -- the section's [feed NAME]
  identity  CHAR(16) NOT NULL,        -- the mapping and limits it was made for
  planned   BIGINT NOT NULL,
  parts     MEDIUMTEXT NOT NULL,
  position  VARCHAR(1024) NOT NULL DEFAULT '',
  PRIMARY KEY (feed)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
-- (a table made by an earlier version gains the column; until it has it,
-- the program works as before and reads every part from the primary)
ALTER TABLE feed_part_plan ADD COLUMN IF NOT EXISTS position VARCHAR(1024) NOT NULL DEFAULT '' AFTER parts;

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

-- The items of MSN feeds (lifecycle = msn), one record per item of each
-- feed: the fingerprint of its content as the feed renders it (everything
-- but the modified date), the moment that last changed (dcterms:modified),
-- its end (dcterms:valid, mi:expirationDate), whether it was taken down
-- (it left the board: its record then holds the take-down's moments until
-- the retention window has passed, and goes) and whether a response listed
-- it (only listed items get take-downs). Title and link are the last ones
-- rendered, which a take-down repeats. Moments are Unix seconds.
CREATE TABLE IF NOT EXISTS feed_item_state (
  feed         VARCHAR(64) NOT NULL,   -- the [feed NAME]
  item_id      BIGINT NOT NULL,        -- the board's id (the feed's keyset)
  fingerprint  BIGINT NOT NULL,        -- SipHash of the rendered item, as signed 64 bits
  modified     BIGINT NOT NULL,
  expires      BIGINT NULL,            -- NULL: the item has no end
  gone         TINYINT NOT NULL DEFAULT 0,
  listed       TINYINT NOT NULL DEFAULT 0,
  title        TEXT NOT NULL,
  link         TEXT NOT NULL,
  PRIMARY KEY (feed, item_id),
  KEY newest (feed, gone, modified, item_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

-- When each MSN feed's item state was last brought up to date: the moment
-- the board was read (Unix seconds). A fetch syncs first when this is older
-- than the feed's settle_seconds; `feed.fcgi sync PATH` does it from cron.
-- With replicas, `position` is "SYNCED GTID": the replication position that
-- sync read the board at; the next sync reads from a server that has
-- reached it (an older state would undo edits and record them again). A
-- position of another moment or none ('') sends the next sync to the
-- primary.
CREATE TABLE IF NOT EXISTS feed_item_sync (
  feed      VARCHAR(64) NOT NULL,
  synced    BIGINT NOT NULL,
  position  VARCHAR(1024) NOT NULL DEFAULT '',
  PRIMARY KEY (feed)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
-- (a table made by an earlier version gains the column; until it has it,
-- MSN syncs read the board from the primary)
ALTER TABLE feed_item_sync ADD COLUMN IF NOT EXISTS position VARCHAR(1024) NOT NULL DEFAULT '' AFTER synced;

-- What each response of each feed was, for the status page ([status]
-- enabled = 1; lib/run_report.h): written after the response was handed
-- over, never inside it; each write drops the feed's reports beyond the
-- newest [status] reports (20).
CREATE TABLE IF NOT EXISTS feed_run_report (
  id         BIGINT NOT NULL AUTO_INCREMENT,
  feed       VARCHAR(64) NOT NULL,   -- the [feed NAME] or [set NAME]
  at         BIGINT NOT NULL,        -- when, Unix seconds
  robot      VARCHAR(64) NOT NULL,   -- which robot asked ('' anyone else)
  client     VARCHAR(64) NOT NULL,   -- the client's address
  method     VARCHAR(8) NOT NULL,    -- GET or HEAD (a HEAD sends no rows)
  status     SMALLINT NOT NULL,      -- the HTTP status sent
  rows_sent  BIGINT NOT NULL,
  bytes      BIGINT NOT NULL,        -- the body before compression
  millis     BIGINT NOT NULL,        -- time taken
  left_out   BIGINT NOT NULL,        -- rows (and items) a template rule left out
  reasons    TEXT NOT NULL,          -- the first few of them, one a line
  PRIMARY KEY (id),
  KEY newest (feed, id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
