-- Newest change among the legacy board's vacancies (indexed `modified`).
SELECT MAX(modified) AS last_modified,
       LEFT(:now, 10) AS today
  FROM vacancy;
