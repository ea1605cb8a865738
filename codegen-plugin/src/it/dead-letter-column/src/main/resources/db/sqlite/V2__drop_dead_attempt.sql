ALTER TABLE jobs_dead DROP COLUMN attempt;
