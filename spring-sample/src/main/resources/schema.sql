-- Run by Boot's SQL initialization (spring.sql.init.mode: always); a service would keep it in Flyway migrations.
CREATE TABLE IF NOT EXISTS accounts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    email TEXT NOT NULL UNIQUE
);

CREATE TABLE IF NOT EXISTS welcome_jobs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    retry_after TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    attempt INTEGER NOT NULL DEFAULT 1,
    processed_at TEXT,
    locked_until TEXT,
    payload BLOB NOT NULL
);

CREATE INDEX IF NOT EXISTS welcome_jobs_claim ON welcome_jobs (name, retry_after, id);

-- The outbox's records of the account events sent to other services (OutboxBinding Outboxes.ACCOUNT_EVENTS).
CREATE TABLE IF NOT EXISTS account_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    payload BLOB NOT NULL,
    headers TEXT
);

-- What the welcome handler's @Transactional service writes, in the delivery's transaction.
CREATE TABLE IF NOT EXISTS sent_mails (
    email TEXT NOT NULL
);
