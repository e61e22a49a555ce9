-- The project's own sample board: a small classifieds and jobs site in
-- utf8mb4 (so its text can hold emoji and any script), used by `make run`
-- and the tests. All DATETIME values are site-local time (conf: time_zone).
-- Load into an empty database:  mariadb sample < sql/sample-board.sql

DROP TABLE IF EXISTS job, listing, region;

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
