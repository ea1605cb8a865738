-- SQLite alters no column: the column is dropped and added again, NOT NULL.
ALTER TABLE jobs DROP COLUMN payload;
ALTER TABLE jobs ADD COLUMN payload BLOB NOT NULL DEFAULT x'';
