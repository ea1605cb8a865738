CREATE TABLE jobs (
    job_id     INTEGER PRIMARY KEY AUTOINCREMENT,
    name       TEXT NOT NULL,
    attempt    SMALLINT NOT NULL DEFAULT 1,
    account_id BIGINT,
    payload    BLOB
);
CREATE INDEX jobs_claim ON jobs (name, job_id);

CREATE TABLE jobs_dead (
    job_id     INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    attempt    SMALLINT NOT NULL,
    account_id BIGINT,
    payload    BLOB
);

CREATE TABLE outbox_records (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    name         TEXT NOT NULL,
    payload      BLOB NOT NULL,
    headers      TEXT
);
