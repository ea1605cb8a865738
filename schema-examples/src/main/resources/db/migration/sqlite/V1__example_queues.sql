-- The example queue tables of tablequeue, on SQLite.
-- SQLite compares times as text, so every time column holds one layout, UTC with milliseconds:
-- 2026-11-30T04:00:00.000+00:00, the layout of dev.tablequeue.dialect.SqliteTime. A default writes it
-- with strftime; the generated jOOQ classes read and write it as OffsetDateTime through SqliteTime.
-- An id the database fills is INTEGER PRIMARY KEY AUTOINCREMENT, an alias of the rowid. AUTOINCREMENT
-- keeps an id from being handed out twice: without it a queue that drains (acknowledged rows deleted)
-- starts again at 1, and a late settlement or an outbox id could name a new row.
-- Each queue table carries an index in its claim order: group, priority, retry_after, then the id,
-- for the columns the table has. A table whose claim order is its id alone needs only the rowid.

-- Payload mode, grouped by name; an acknowledgement stamps processed_at.
CREATE TABLE email_jobs (
    job_id       INTEGER PRIMARY KEY AUTOINCREMENT,
    name         TEXT,
    retry_after  TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    attempt      SMALLINT DEFAULT 1,
    processed_at TEXT,
    payload      BLOB
);
CREATE INDEX email_jobs_claim ON email_jobs (name, retry_after, job_id);

-- The dead-letter table of email_jobs: the same columns. It is never claimed, so it has no claim index.
CREATE TABLE email_jobs_dead (
    job_id       INTEGER PRIMARY KEY AUTOINCREMENT,
    name         TEXT,
    retry_after  TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    attempt      SMALLINT DEFAULT 1,
    processed_at TEXT,
    payload      BLOB
);

-- Groups, priorities and partition keys.
CREATE TABLE support_tickets (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    queue        TEXT NOT NULL,
    urgency      SMALLINT NOT NULL,
    customer     TEXT NOT NULL,
    retry_after  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    attempt      SMALLINT NOT NULL DEFAULT 1,
    processed_at TEXT,
    payload      BLOB NOT NULL
);
CREATE INDEX support_tickets_claim ON support_tickets (queue, urgency, retry_after, id);

-- Read on the database's clock.
CREATE TABLE invoice_jobs (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    retry_after  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    processed_at TEXT,
    payload      BLOB NOT NULL
);
CREATE INDEX invoice_jobs_claim ON invoice_jobs (retry_after, id);

-- The lease form.
CREATE TABLE report_jobs (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    attempt      SMALLINT NOT NULL DEFAULT 1,
    locked_until TEXT,
    payload      BLOB NOT NULL
);

-- The advisory lock form, one key per row: jobs-{job_id}.
CREATE TABLE jobs (
    job_id  INTEGER PRIMARY KEY AUTOINCREMENT,
    attempt SMALLINT NOT NULL DEFAULT 1,
    payload BLOB NOT NULL
);

-- The advisory lock form, one key per account: the payouts of an account run one at a time.
CREATE TABLE payouts (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id BIGINT NOT NULL,
    payload    BLOB NOT NULL
);

-- Transactional mode: a signup opens an account and queues its welcome email in one transaction.
CREATE TABLE signup_jobs (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    attempt SMALLINT NOT NULL DEFAULT 1,
    payload BLOB NOT NULL
);

CREATE TABLE welcome_jobs (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    payload BLOB NOT NULL
);

CREATE TABLE accounts (
    id    INTEGER PRIMARY KEY AUTOINCREMENT,
    email TEXT NOT NULL UNIQUE
);

-- FIFO groups: the changes bound for one target run one at a time, in claim order.
CREATE TABLE sync_jobs (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    target      TEXT NOT NULL,
    retry_after TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    payload     BLOB NOT NULL
);
CREATE INDEX sync_jobs_claim ON sync_jobs (target, retry_after, id);

-- The lease form.
CREATE TABLE thumbnail_jobs (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    attempt      SMALLINT NOT NULL DEFAULT 1,
    locked_until TEXT,
    payload      BLOB NOT NULL
);

-- Row mode with the headers in columns of their own (tenant, trace, order_id) and a data column (note).
CREATE TABLE order_jobs (
    job_id   INTEGER PRIMARY KEY AUTOINCREMENT,
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
    id       INTEGER PRIMARY KEY,
    customer TEXT,
    total    BIGINT
);

-- The transactional outbox's record table; headers are a JSON object kept as text.
CREATE TABLE outbox (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    name         TEXT NOT NULL,
    payload      BLOB NOT NULL,
    headers      TEXT,
    processed_at TEXT
);
