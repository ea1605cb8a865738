-- The example queue tables of tablequeue, on PostgreSQL.
-- Each queue table carries an index in its claim order: group, priority, retry_after, then the id,
-- for the columns the table has. A table whose claim order is its id alone needs only the primary key.

-- Payload mode, grouped by name; an acknowledgement stamps processed_at.
CREATE TABLE email_jobs (
    job_id       BIGSERIAL PRIMARY KEY,
    name         TEXT,
    retry_after  TIMESTAMPTZ DEFAULT now(),
    attempt      SMALLINT DEFAULT 1,
    processed_at TIMESTAMPTZ,
    payload      BYTEA
);
CREATE INDEX email_jobs_claim ON email_jobs (name, retry_after, job_id);

-- The dead-letter table of email_jobs: the same columns. It is never claimed, so it has no claim index.
CREATE TABLE email_jobs_dead (
    job_id       BIGSERIAL PRIMARY KEY,
    name         TEXT,
    retry_after  TIMESTAMPTZ DEFAULT now(),
    attempt      SMALLINT DEFAULT 1,
    processed_at TIMESTAMPTZ,
    payload      BYTEA
);

-- Groups, priorities and partition keys.
CREATE TABLE support_tickets (
    id           BIGSERIAL PRIMARY KEY,
    queue        TEXT NOT NULL,
    urgency      SMALLINT NOT NULL,
    customer     TEXT NOT NULL,
    retry_after  TIMESTAMPTZ NOT NULL DEFAULT now(),
    attempt      SMALLINT NOT NULL DEFAULT 1,
    processed_at TIMESTAMPTZ,
    payload      BYTEA NOT NULL
);
CREATE INDEX support_tickets_claim ON support_tickets (queue, urgency, retry_after, id);

-- Read on the database's clock.
CREATE TABLE invoice_jobs (
    id           BIGSERIAL PRIMARY KEY,
    retry_after  TIMESTAMPTZ NOT NULL DEFAULT now(),
    processed_at TIMESTAMPTZ,
    payload      BYTEA NOT NULL
);
CREATE INDEX invoice_jobs_claim ON invoice_jobs (retry_after, id);

-- The lease form.
CREATE TABLE report_jobs (
    id           BIGSERIAL PRIMARY KEY,
    attempt      SMALLINT NOT NULL DEFAULT 1,
    locked_until TIMESTAMPTZ,
    payload      BYTEA NOT NULL
);

-- The advisory lock form, one key per row: jobs-{job_id}.
CREATE TABLE jobs (
    job_id  BIGSERIAL PRIMARY KEY,
    attempt SMALLINT NOT NULL DEFAULT 1,
    payload BYTEA NOT NULL
);

-- The advisory lock form, one key per account: the payouts of an account run one at a time.
CREATE TABLE payouts (
    id         BIGSERIAL PRIMARY KEY,
    account_id BIGINT NOT NULL,
    payload    BYTEA NOT NULL
);

-- Transactional mode: a signup opens an account and queues its welcome email in one transaction.
CREATE TABLE signup_jobs (
    id      BIGSERIAL PRIMARY KEY,
    attempt SMALLINT NOT NULL DEFAULT 1,
    payload BYTEA NOT NULL
);

CREATE TABLE welcome_jobs (
    id      BIGSERIAL PRIMARY KEY,
    payload BYTEA NOT NULL
);

CREATE TABLE accounts (
    id    BIGSERIAL PRIMARY KEY,
    email TEXT NOT NULL UNIQUE
);

-- FIFO groups: the changes bound for one target run one at a time, in claim order.
CREATE TABLE sync_jobs (
    id          BIGSERIAL PRIMARY KEY,
    target      TEXT NOT NULL,
    retry_after TIMESTAMPTZ NOT NULL DEFAULT now(),
    payload     BYTEA NOT NULL
);
CREATE INDEX sync_jobs_claim ON sync_jobs (target, retry_after, id);

-- The lease form.
CREATE TABLE thumbnail_jobs (
    id           BIGSERIAL PRIMARY KEY,
    attempt      SMALLINT NOT NULL DEFAULT 1,
    locked_until TIMESTAMPTZ,
    payload      BYTEA NOT NULL
);

-- Row mode with the headers in columns of their own (tenant, trace, order_id) and a data column (note).
CREATE TABLE order_jobs (
    job_id   BIGSERIAL PRIMARY KEY,
    name     TEXT,
    attempt  SMALLINT DEFAULT 1,
    tenant   TEXT,
    trace    TEXT NULL,
    order_id BIGINT,
    note     TEXT NULL
);
CREATE INDEX order_jobs_claim ON order_jobs (name, job_id);

-- The service's own data, which a fetch of its own joins to order_jobs.
CREATE TABLE orders (
    id       BIGINT PRIMARY KEY,
    customer TEXT,
    total    BIGINT
);

-- The transactional outbox's record table.
CREATE TABLE outbox (
    id           BIGSERIAL PRIMARY KEY,
    name         TEXT NOT NULL,
    payload      BYTEA NOT NULL,
    headers      JSONB,
    processed_at TIMESTAMPTZ
);
