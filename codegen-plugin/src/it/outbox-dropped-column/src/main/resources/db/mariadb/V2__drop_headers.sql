ALTER TABLE outbox_records DROP COLUMN headers;
