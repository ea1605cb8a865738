ALTER TABLE jobs DROP COLUMN account_id;
