CREATE TABLE kit_jobs (
    id           BIGINT AUTO_INCREMENT PRIMARY KEY,
    grp          VARCHAR(100) NOT NULL,
    retry_after  DATETIME(6)  NOT NULL DEFAULT (UTC_TIMESTAMP(6)),
    attempt      INT          NOT NULL DEFAULT 1,
    processed_at DATETIME(6)  NULL,
    locked_until DATETIME(6)  NULL,
    payload      TEXT,
    INDEX kit_jobs_claim (grp, processed_at, retry_after, id)
);
