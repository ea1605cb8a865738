-- Every acknowledgement leaves a dead row version and a dead entry at the head of the claim index, and a claim
-- steps over every dead entry until a vacuum removes it. By default autovacuum waits for a fifth of the table
-- to be dead, which a table that keeps its processed rows reaches later and later as it grows: a queue table
-- is vacuumed by a fixed count of dead rows instead, and without the cost delay. How often autovacuum looks at
-- a database at all is the server's autovacuum_naptime (README, "Keeping a PostgreSQL queue table fast").
DO $$
DECLARE
    queue_table TEXT;
BEGIN
    FOREACH queue_table IN ARRAY ARRAY['email_jobs', 'support_tickets', 'invoice_jobs', 'demo_jobs'] LOOP
        EXECUTE format('ALTER TABLE %I SET (autovacuum_vacuum_scale_factor = 0,'
            ' autovacuum_vacuum_threshold = 10000, autovacuum_vacuum_insert_scale_factor = 0,'
            ' autovacuum_vacuum_insert_threshold = 10000, autovacuum_vacuum_cost_delay = 0)', queue_table);
    END LOOP;
END
$$;
