-- What the demo's handler writes in its delivery's transaction when the demo runs with --transactional: one row
-- per job, with the attempt that wrote it. The handler writes its row on every attempt before it answers;
-- only an acknowledgement commits it, so a retried first attempt and every attempt of a job that always fails
-- leave nothing here. The key is the job alone: a second committed row for a job is impossible.
CREATE TABLE demo_results (
    job     INTEGER NOT NULL PRIMARY KEY,
    attempt INTEGER NOT NULL
);
