CREATE TABLE kit_jobs (
    id           BIGSERIAL PRIMARY KEY,
    grp          TEXT        NOT NULL,
    retry_after  TIMESTAMPTZ NOT NULL DEFAULT now(),
    attempt      INT         NOT NULL DEFAULT 1,
    processed_at TIMESTAMPTZ,
    locked_until TIMESTAMPTZ,
    payload      TEXT
);
CREATE INDEX kit_jobs_claim ON kit_jobs (grp, retry_after, id) WHERE processed_at IS NULL;
