-- The newest change among the jobs (new, edited and deleted jobs all stamp
-- the indexed `updated`): Last-Modified, the ETag and 304 of the Jooble
-- feeds. The day is part of the state because jobs expire by the day.
SELECT MAX(updated) AS last_modified,
       LEFT(:now, 10) AS today
  FROM job;
