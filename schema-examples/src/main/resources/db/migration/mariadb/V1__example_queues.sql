-- The example queue tables of tablequeue, on MariaDB 10.6+ (and MySQL 8.0.13+, which takes the same text).
-- Times are DATETIME(6) holding UTC: a default reads UTC_TIMESTAMP(6), never NOW(6), which follows the
-- session's time zone. Text that is indexed or compared as a key is VARCHAR(191), which fits an index
-- in utf8mb4 on every row format; free text is TEXT.
-- Each queue table carries an index in its claim order: group, priority, retry_after, then the id,
-- for the columns the table has. A table whose claim order is its id alone needs only the primary key.
-- On MySQL and MariaDB the index matters beyond speed: a row lock claim at REPEATABLE READ locks every
-- row it reads, and the index keeps it to its own group.

-- Payload mode, grouped by name; an acknowledgement stamps processed_at.
CREATE TABLE email_jobs (
    job_id       BIGINT AUTO_INCREMENT PRIMARY KEY,
    name         VARCHAR(191),
    retry_after  DATETIME(6) DEFAULT (UTC_TIMESTAMP(6)),
    attempt      SMALLINT DEFAULT 1,
    processed_at DATETIME(6),
    payload      LONGBLOB
);
CREATE INDEX email_jobs_claim ON email_jobs (name, retry_after, job_id);

-- The dead-letter table of email_jobs: the same columns. It is never claimed, so it has no claim index.
CREATE TABLE email_jobs_dead (
    job_id       BIGINT AUTO_INCREMENT PRIMARY KEY,
    name         VARCHAR(191),
    retry_after  DATETIME(6) DEFAULT (UTC_TIMESTAMP(6)),
    attempt      SMALLINT DEFAULT 1,
    processed_at DATETIME(6),
    payload      LONGBLOB
);

-- Groups, priorities and partition keys.
CREATE TABLE support_tickets (
    id           BIGINT AUTO_INCREMENT PRIMARY KEY,
    queue        VARCHAR(191) NOT NULL,
    urgency      SMALLINT NOT NULL,
    customer     VARCHAR(191) NOT NULL,
    retry_after  DATETIME(6) NOT NULL DEFAULT (UTC_TIMESTAMP(6)),
    attempt      SMALLINT NOT NULL DEFAULT 1,
    processed_at DATETIME(6),
    payload      LONGBLOB NOT NULL
);
CREATE INDEX support_tickets_claim ON support_tickets (queue, urgency, retry_after, id);

-- Read on the database's clock.
CREATE TABLE invoice_jobs (
    id           BIGINT AUTO_INCREMENT PRIMARY KEY,
    retry_after  DATETIME(6) NOT NULL DEFAULT (UTC_TIMESTAMP(6)),
    processed_at DATETIME(6),
    payload      LONGBLOB NOT NULL
);
CREATE INDEX invoice_jobs_claim ON invoice_jobs (retry_after, id);

-- The lease form.
CREATE TABLE report_jobs (
    id           BIGINT AUTO_INCREMENT PRIMARY KEY,
    attempt      SMALLINT NOT NULL DEFAULT 1,
    locked_until DATETIME(6),
    payload      LONGBLOB NOT NULL
);

-- The advisory lock form, one key per row: jobs-{job_id}.
CREATE TABLE jobs (
    job_id  BIGINT AUTO_INCREMENT PRIMARY KEY,
    attempt SMALLINT NOT NULL DEFAULT 1,
    payload LONGBLOB NOT NULL
);

-- The advisory lock form, one key per account: the payouts of an account run one at a time.
CREATE TABLE payouts (
    id         BIGINT AUTO_INCREMENT PRIMARY KEY,
    account_id BIGINT NOT NULL,
    payload    LONGBLOB NOT NULL
);

-- Transactional mode: a signup opens an account and queues its welcome email in one transaction.
CREATE TABLE signup_jobs (
    id      BIGINT AUTO_INCREMENT PRIMARY KEY,
    attempt SMALLINT NOT NULL DEFAULT 1,
    payload LONGBLOB NOT NULL
);

CREATE TABLE welcome_jobs (
    id      BIGINT AUTO_INCREMENT PRIMARY KEY,
    payload LONGBLOB NOT NULL
);

CREATE TABLE accounts (
    id    BIGINT AUTO_INCREMENT PRIMARY KEY,
    email VARCHAR(191) NOT NULL UNIQUE
);

-- FIFO groups: the changes bound for one target run one at a time, in claim order.
CREATE TABLE sync_jobs (
    id          BIGINT AUTO_INCREMENT PRIMARY KEY,
    target      VARCHAR(191) NOT NULL,
    retry_after DATETIME(6) NOT NULL DEFAULT (UTC_TIMESTAMP(6)),
    payload     LONGBLOB NOT NULL
);
CREATE INDEX sync_jobs_claim ON sync_jobs (target, retry_after, id);

-- The lease form.
CREATE TABLE thumbnail_jobs (
    id           BIGINT AUTO_INCREMENT PRIMARY KEY,
    attempt      SMALLINT NOT NULL DEFAULT 1,
    locked_until DATETIME(6),
    payload      LONGBLOB NOT NULL
);

-- Row mode with the headers in columns of their own (tenant, trace, order_id) and a data column (note).
CREATE TABLE order_jobs (
    job_id   BIGINT AUTO_INCREMENT PRIMARY KEY,
    name     VARCHAR(191),
    attempt  SMALLINT DEFAULT 1,
    tenant   VARCHAR(191),
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

-- The transactional outbox's record table. JSON is LONGTEXT with a json_valid check on MariaDB.
CREATE TABLE outbox (
    id           BIGINT AUTO_INCREMENT PRIMARY KEY,
    name         VARCHAR(191) NOT NULL,
    payload      LONGBLOB NOT NULL,
    headers      JSON,
    processed_at DATETIME(6)
);
