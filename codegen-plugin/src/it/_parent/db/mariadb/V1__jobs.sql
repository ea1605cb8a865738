CREATE TABLE jobs (
    job_id     BIGINT AUTO_INCREMENT PRIMARY KEY,
    name       VARCHAR(191) NOT NULL,
    attempt    SMALLINT NOT NULL DEFAULT 1,
    account_id BIGINT,
    payload    LONGBLOB
);
CREATE INDEX jobs_claim ON jobs (name, job_id);

CREATE TABLE jobs_dead (
    job_id     BIGINT PRIMARY KEY,
    name       VARCHAR(191) NOT NULL,
    attempt    SMALLINT NOT NULL,
    account_id BIGINT,
    payload    LONGBLOB
);

CREATE TABLE outbox_records (
    id           BIGINT AUTO_INCREMENT PRIMARY KEY,
    name         VARCHAR(191) NOT NULL,
    payload      LONGBLOB NOT NULL,
    headers      TEXT
);
