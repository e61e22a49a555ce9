-- Tables feed.fcgi itself owns, in the board's database. Safe to run again.
--   mariadb board < sql/state.sql
--   GRANT SELECT, INSERT, UPDATE ON board.feed_robot_visit TO 'feeds'@'localhost';
-- (the feed user needs only SELECT on the board's own tables).

-- Each robot's last whole visit of each feed (Jooble's incremental feed):
-- the moment the feed it received was taken, site time. It advances only
-- after a response to that robot was written to its end.
CREATE TABLE IF NOT EXISTS feed_robot_visit (
  robot       VARCHAR(64) NOT NULL,   -- the config's `since = robot NAME`
  feed        VARCHAR(64) NOT NULL,   -- the [feed NAME]
  last_visit  DATETIME NOT NULL,
  recorded    DATETIME NOT NULL,      -- when it was written
  PRIMARY KEY (robot, feed)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
