CREATE TABLE jobs (
    job_id     BIGSERIAL PRIMARY KEY,
    name       TEXT NOT NULL,
    attempt    SMALLINT NOT NULL DEFAULT 1,
    account_id BIGINT,
    payload    BYTEA
);
CREATE INDEX jobs_claim ON jobs (name, job_id);

CREATE TABLE jobs_dead (
    job_id     BIGINT PRIMARY KEY,
    name       TEXT NOT NULL,
    attempt    SMALLINT NOT NULL,
    account_id BIGINT,
    payload    BYTEA
);

CREATE TABLE outbox_records (
    id           BIGSERIAL PRIMARY KEY,
    name         TEXT NOT NULL,
    payload      BYTEA NOT NULL,
    headers      TEXT
);
