-- A table that keeps its acknowledged rows (processed_at set) grows without end. MariaDB and MySQL have no
-- partial index, so the claim index puts processed_at right after the group: a claim reads the unfinished rows
-- (processed_at IS NULL) in claim order, and steps over none of the rows acknowledged before them.
DROP INDEX email_jobs_claim ON email_jobs;
CREATE INDEX email_jobs_claim ON email_jobs (name, processed_at, retry_after, job_id);

DROP INDEX support_tickets_claim ON support_tickets;
CREATE INDEX support_tickets_claim ON support_tickets (queue, processed_at, urgency, retry_after, id);

DROP INDEX invoice_jobs_claim ON invoice_jobs;
CREATE INDEX invoice_jobs_claim ON invoice_jobs (processed_at, retry_after, id);
