-- The orders service's tables, on PostgreSQL. Boot's Flyway runs this at start; jOOQ's classes are generated
-- from it at build time (DDLDatabase), and tablequeue:check checks the bindings against it.

CREATE TABLE orders (
    id           BIGSERIAL PRIMARY KEY,
    customer     TEXT        NOT NULL,
    amount_cents BIGINT      NOT NULL,
    placed_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- A queue table (RoleBinding Queues.INVOICE_JOBS), in the row lock form: jobs grouped by name, retried at
-- retry_after, counted in attempt, stamped processed_at when acknowledged.
CREATE TABLE invoice_jobs (
    id           BIGSERIAL PRIMARY KEY,
    name         VARCHAR(100) NOT NULL,
    retry_after  TIMESTAMPTZ NOT NULL DEFAULT now(),
    attempt      INTEGER     NOT NULL DEFAULT 1,
    processed_at TIMESTAMPTZ,
    payload      BYTEA       NOT NULL
);
-- The claim's order, over the rows still to do.
CREATE INDEX invoice_jobs_claim ON invoice_jobs (name, retry_after, id) WHERE processed_at IS NULL;

-- What the invoicing job writes, through the delivery's transaction.
CREATE TABLE invoices (
    order_id     BIGINT      PRIMARY KEY REFERENCES orders (id),
    amount_cents BIGINT      NOT NULL,
    issued_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- The outbox's records (OutboxBinding Queues.ORDER_EVENTS): every event the service sends to Kafka or RabbitMQ is
-- written here in the transaction that produced it, and stamped processed_at once the broker confirmed it. The
-- periodic republish claims the records it sends again through locked_until, so that one instance sends each.
CREATE TABLE order_events (
    id           BIGSERIAL PRIMARY KEY,
    name         VARCHAR(100) NOT NULL,
    payload      BYTEA       NOT NULL,
    headers      TEXT,
    processed_at TIMESTAMPTZ,
    locked_until TIMESTAMPTZ
);
