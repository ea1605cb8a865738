DROP INDEX jobs_claim ON jobs;
