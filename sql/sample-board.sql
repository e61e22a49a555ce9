-- The project's own sample board: a small classifieds, jobs and documents site in
-- utf8mb4 (so its text can hold emoji and any script), used by `make run`
-- and the tests. All DATETIME values are site-local time (conf: time_zone).
-- Load into an empty database:  mariadb sample < sql/sample-board.sql

DROP TABLE IF EXISTS document_comment, document, member, job, listing, region;

CREATE TABLE region (
  region_id  SMALLINT UNSIGNED NOT NULL AUTO_INCREMENT,
  name       VARCHAR(64) NOT NULL DEFAULT '',
  PRIMARY KEY (region_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

-- Classified ads. `ref` is the public reference shown in the ad's URL and
-- sent as the feed id (normally 8-20 letters and digits; legacy imports left
-- some longer or with punctuation).
CREATE TABLE listing (
  id         INT UNSIGNED NOT NULL AUTO_INCREMENT,
  ref        VARCHAR(64) NOT NULL,
  kind       ENUM('offer','demand') NOT NULL DEFAULT 'offer',
  title      VARCHAR(255) NOT NULL DEFAULT '',
  body       TEXT NOT NULL,                 -- as typed: may hold HTML
  author     VARCHAR(100) NOT NULL DEFAULT '',
  region_id  SMALLINT UNSIGNED NOT NULL DEFAULT 0,
  phone      VARCHAR(64) NOT NULL DEFAULT '',
  email      VARCHAR(100) NOT NULL DEFAULT '',
  icq        VARCHAR(20) NOT NULL DEFAULT '',
  photo      VARCHAR(255) NOT NULL DEFAULT '',
  added      DATETIME NOT NULL,
  days       SMALLINT NOT NULL DEFAULT 30,  -- how long the ad stays posted
  updated    DATETIME NOT NULL,
  status     ENUM('active','hidden','deleted') NOT NULL DEFAULT 'active',
  PRIMARY KEY (id),
  KEY added (added),                        -- InnoDB appends id: (added, id)
  KEY updated (updated)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

-- Vacancies and resumes.
CREATE TABLE job (
  id            INT UNSIGNED NOT NULL AUTO_INCREMENT,
  is_resume     TINYINT NOT NULL DEFAULT 0,
  title         VARCHAR(255) NOT NULL DEFAULT '',
  regions       VARCHAR(255) NOT NULL DEFAULT '',  -- 'Київ, Харків'
  salary        VARCHAR(64) NOT NULL DEFAULT '',
  company       VARCHAR(255) NOT NULL DEFAULT '',
  company_info  TEXT NOT NULL,
  description   TEXT NOT NULL,
  contacts      TEXT NOT NULL,
  expires       DATE NULL DEFAULT NULL,
  created       DATETIME NOT NULL,
  updated       DATETIME NOT NULL,
  status        ENUM('active','hidden','deleted') NOT NULL DEFAULT 'active',
  PRIMARY KEY (id),
  KEY updated (updated)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

-- The document library: members upload documents (Chinese text), which
-- others comment on. Baidu's document sitemap lists them (sql/sample-baidu*).
CREATE TABLE member (
  id     INT UNSIGNED NOT NULL AUTO_INCREMENT,
  login  VARCHAR(64) NOT NULL DEFAULT '',
  PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE document (
  id            INT UNSIGNED NOT NULL AUTO_INCREMENT,
  category      VARCHAR(255) NOT NULL DEFAULT '',  -- '资料分类 > 教育资料 > 高等教育'
  title         VARCHAR(255) NOT NULL DEFAULT '',  -- without the extension; may hold HTML
  summary       TEXT NOT NULL,                     -- as typed: may hold HTML
  genre         VARCHAR(32) NOT NULL DEFAULT '',
  ext           VARCHAR(10) NOT NULL DEFAULT '',
  size_bytes    BIGINT UNSIGNED NOT NULL DEFAULT 0,
  coins         INT UNSIGNED NOT NULL DEFAULT 0,   -- price to download
  member_id     INT UNSIGNED NOT NULL DEFAULT 0,   -- the uploader (may be gone)
  stored        TINYINT NOT NULL DEFAULT 1,        -- 0: the upload never completed
  mirrors       VARCHAR(1024) NOT NULL DEFAULT '', -- other download URLs, '|'-separated
  uploaded      DATETIME NOT NULL,
  updated       DATETIME NOT NULL,
  downloads     INT UNSIGNED NOT NULL DEFAULT 0,
  favorites     INT UNSIGNED NOT NULL DEFAULT 0,
  likes         INT UNSIGNED NOT NULL DEFAULT 0,
  shares        INT UNSIGNED NOT NULL DEFAULT 0,
  rating_sum    INT UNSIGNED NOT NULL DEFAULT 0,   -- sum of 1..5 votes
  rating_count  INT UNSIGNED NOT NULL DEFAULT 0,
  tags          VARCHAR(255) NOT NULL DEFAULT '',  -- comma-separated, as typed
  status        ENUM('active','hidden','deleted') NOT NULL DEFAULT 'active',
  PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE document_comment (
  id           INT UNSIGNED NOT NULL AUTO_INCREMENT,
  document_id  INT UNSIGNED NOT NULL DEFAULT 0,
  member_id    INT UNSIGNED NOT NULL DEFAULT 0,   -- the author (may be gone)
  body         TEXT NOT NULL,                     -- as typed: may hold HTML
  created      DATETIME NOT NULL,
  PRIMARY KEY (id),
  KEY document (document_id, created)             -- a chunk's comments by range
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
