-- Why a row of email_jobs last failed: the exception's class and message, written by tablequeue with every
-- retry, dead letter and drop that a failure caused (the binding's lastError role). The dead-letter table
-- keeps the same columns, so a row moved there carries it.
ALTER TABLE email_jobs ADD COLUMN last_error TEXT;
ALTER TABLE email_jobs_dead ADD COLUMN last_error TEXT;
