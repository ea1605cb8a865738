CREATE TABLE kit_jobs (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    grp          TEXT    NOT NULL,
    retry_after  TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')),
    attempt      INTEGER NOT NULL DEFAULT 1,
    processed_at TEXT,
    locked_until TEXT,
    payload      TEXT
);
CREATE INDEX kit_jobs_claim ON kit_jobs (grp, retry_after, id) WHERE processed_at IS NULL;
