-- As on PostgreSQL, SQLite taking partial indexes too: a table that keeps its acknowledged rows (processed_at
-- set) grows without end, and its claim index with it where the index holds every row, so a claim steps over
-- all the rows acknowledged before the first pending one. A partial index over the unfinished rows, in claim
-- order, holds only what a claim can take.
DROP INDEX email_jobs_claim;
CREATE INDEX email_jobs_claim ON email_jobs (name, retry_after, job_id) WHERE processed_at IS NULL;

DROP INDEX support_tickets_claim;
CREATE INDEX support_tickets_claim ON support_tickets (queue, urgency, retry_after, id) WHERE processed_at IS NULL;

DROP INDEX invoice_jobs_claim;
CREATE INDEX invoice_jobs_claim ON invoice_jobs (retry_after, id) WHERE processed_at IS NULL;
