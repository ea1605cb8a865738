ALTER TABLE jobs RENAME TO queue_jobs;
