package dev.tablequeue.bench;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.Publisher;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.outbox.Outbox;
import dev.tablequeue.outbox.OutboxBinding;
import java.time.Duration;
import java.time.temporal.Temporal;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jooq.DSLContext;
import org.jooq.DataType;
import org.jooq.Record;
import org.jooq.TableField;
import org.jooq.impl.DSL;
import org.jooq.impl.DefaultConfiguration;
import org.jooq.impl.SQLDataType;
import org.jooq.impl.TableImpl;

/**
 * The outbox's cost, tracked beside untracked on the same tables and pool: a publish into the table broker
 * inside the caller's transaction (PostgreSQL; one jOOQ transaction per message; tracked, its record is written
 * in the same transaction before the row), and a delivery of a prefilled inbox whose rows carry a record id
 * (every database, in the row lock form, or the lease form on SQLite; tracked, each record is marked in the
 * settlement's transaction: at the claim in the row lock form; in the lease form after the claim's read of its
 * records).
 */
final class OutboxRun {
    private static final AtomicInteger TABLES = new AtomicInteger();

    private OutboxRun() {}

    /** An inbox table that keeps headers: in the row lock form, or the lease form where the database has no other. */
    static final class Inbox extends TableImpl<Record> {
        private static final long serialVersionUID = 1L;
        final TableField<Record, Long> ID = createField(DSL.name("id"),
                SQLDataType.BIGINT.nullable(false).generatedByDefaultAsIdentity(), this, "");
        final TableField<Record, String> GRP = createField(DSL.name("grp"), SQLDataType.VARCHAR, this, "");
        final TableField<Record, Integer> ATTEMPT = createField(DSL.name("attempt"), SQLDataType.INTEGER
                .nullable(false).defaultValue(DSL.inline(1)), this, "");
        final TableField<Record, ? extends Temporal> PROCESSED_AT;
        final TableField<Record, ? extends Temporal> LOCKED_UNTIL;
        final TableField<Record, String> HEADERS = createField(DSL.name("headers"), SQLDataType.CLOB, this, "");
        final TableField<Record, byte[]> PAYLOAD = createField(DSL.name("payload"), SQLDataType.BLOB, this, "");

        Inbox(String name, DataType<? extends Temporal> time) {
            super(DSL.name(name));
            PROCESSED_AT = createField(DSL.name("processed_at"), time.nullable(true), this, "");
            LOCKED_UNTIL = createField(DSL.name("locked_until"), time.nullable(true), this, "");
        }

        RoleBinding<Record> binding(Form form) {
            RoleBinding.Builder<Record> b = RoleBinding.of(this, ID).group(GRP).attempt(ATTEMPT)
                    .processedAt(PROCESSED_AT).headers(HEADERS).payload(PAYLOAD);
            if (form == Form.LEASE) {
                b.lease(LOCKED_UNTIL);
            }
            return b.build();
        }
    }

    /** The outbox's record table. */
    static final class Records extends TableImpl<Record> {
        private static final long serialVersionUID = 1L;
        final TableField<Record, Long> ID = createField(DSL.name("id"),
                SQLDataType.BIGINT.nullable(false).generatedByDefaultAsIdentity(), this, "");
        final TableField<Record, String> NAME = createField(DSL.name("name"), SQLDataType.VARCHAR, this, "");
        final TableField<Record, byte[]> PAYLOAD = createField(DSL.name("payload"), SQLDataType.BLOB, this, "");
        final TableField<Record, String> HEADERS = createField(DSL.name("headers"), SQLDataType.CLOB, this, "");
        final TableField<Record, ? extends Temporal> PROCESSED_AT;

        Records(String name, DataType<? extends Temporal> time) {
            super(DSL.name(name));
            PROCESSED_AT = createField(DSL.name("processed_at"), time.nullable(true), this, "");
        }

        OutboxBinding<Record> binding() {
            return OutboxBinding.of(this, ID, NAME, PAYLOAD).headers(HEADERS).processedAt(PROCESSED_AT).build();
        }
    }

    private record Tables(Inbox inbox, Records records) {}

    /** The form of the delivery case on {@code engine}: row lock, or lease on SQLite, which has no row lock. */
    static Form form(Engine engine) {
        return engine.forms().contains(Form.ROW_LOCK) ? Form.ROW_LOCK : Form.LEASE;
    }

    private static Tables create(BenchDatabase db) {
        int n = TABLES.incrementAndGet();
        Inbox inbox = new Inbox("outbox_inbox_" + n, db.engine().timeType());
        Records records = new Records("outbox_records_" + n, db.engine().timeType());
        String i = inbox.getName();
        String r = records.getName();
        switch (db.engine()) {
            case POSTGRES -> db.execute("CREATE TABLE " + i + " (id BIGSERIAL PRIMARY KEY, grp TEXT NOT NULL,"
                            + " attempt INT NOT NULL DEFAULT 1, processed_at TIMESTAMPTZ, locked_until TIMESTAMPTZ,"
                            + " headers TEXT, payload BYTEA)",
                    "CREATE INDEX ON " + i + " (grp, id) WHERE processed_at IS NULL",
                    "CREATE TABLE " + r + " (id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL,"
                            + " payload BYTEA NOT NULL, headers TEXT, processed_at TIMESTAMPTZ)");
            case MARIADB -> db.execute("CREATE TABLE " + i + " (id BIGINT AUTO_INCREMENT PRIMARY KEY,"
                            + " grp VARCHAR(100) NOT NULL, attempt INT NOT NULL DEFAULT 1, processed_at DATETIME(6) NULL,"
                            + " locked_until DATETIME(6) NULL, headers TEXT, payload LONGBLOB,"
                            + " INDEX " + i + "_claim (grp, processed_at, id))",
                    "CREATE TABLE " + r + " (id BIGINT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(100) NOT NULL,"
                            + " payload LONGBLOB NOT NULL, headers TEXT, processed_at DATETIME(6) NULL)");
            case SQLITE -> db.execute("CREATE TABLE " + i + " (id INTEGER PRIMARY KEY AUTOINCREMENT, grp TEXT NOT NULL,"
                            + " attempt INTEGER NOT NULL DEFAULT 1, processed_at TEXT, locked_until TEXT, headers TEXT,"
                            + " payload BLOB)",
                    "CREATE INDEX " + i + "_claim ON " + i + " (grp, locked_until, id) WHERE processed_at IS NULL",
                    "CREATE TABLE " + r + " (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL,"
                            + " payload BLOB NOT NULL, headers TEXT, processed_at TEXT)");
        }
        return new Tables(inbox, records);
    }

    /** Writes {@code messages} unprocessed records and an inbox row per record that carries its id. */
    private static void prefill(BenchDatabase db, Tables t, long messages) {
        String i = t.inbox().getName();
        String r = t.records().getName();
        String g = "'" + BenchTable.GROUP + "'";
        String header = "'{\"" + Outbox.ID_HEADER + "\":\"'";
        switch (db.engine()) {
            case POSTGRES -> db.execute("INSERT INTO " + r + " (name, payload) SELECT " + g + ", '\\x00'::bytea"
                            + " FROM generate_series(1, " + messages + ")",
                    "INSERT INTO " + i + " (grp, payload, headers) SELECT name, payload, " + header
                            + " || id || '\"}' FROM " + r + " ORDER BY id");
            case MARIADB -> db.execute("INSERT INTO " + r + " (name, payload) SELECT " + g + ", x'00' FROM seq_1_to_"
                            + messages,
                    "INSERT INTO " + i + " (grp, payload, headers) SELECT name, payload, CONCAT(" + header
                            + ", id, '\"}') FROM " + r + " ORDER BY id");
            case SQLITE -> db.execute("WITH RECURSIVE tq_seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM tq_seq"
                            + " WHERE n < " + messages + ") INSERT INTO " + r + " (name, payload) SELECT " + g
                            + ", x'00' FROM tq_seq",
                    "INSERT INTO " + i + " (grp, payload, headers) SELECT name, payload, " + header
                            + " || id || '\"}' FROM " + r + " ORDER BY id");
        }
        db.execute(db.engine().analyze(i));
    }

    private static void drop(BenchDatabase db, Tables t) {
        db.execute("DROP TABLE IF EXISTS " + t.inbox().getName(), "DROP TABLE IF EXISTS " + t.records().getName());
    }

    private static Outbox outbox(BenchDatabase db, Tables t) {
        return Outbox.builder(db.pool()).register(BenchTable.GROUP, t.records().binding()).build();
    }

    /**
     * {@code messages} publishes from {@code threads} threads, each in a jOOQ transaction of its own; every row
     * (and, tracked, every record) must be there afterwards.
     */
    static Measurement publish(BenchDatabase db, int threads, long messages, boolean tracked) throws Exception {
        Tables t = create(db);
        try (Outbox outbox = outbox(db, t)) {
            QueueBroker.Builder b = QueueBroker.builder(db.pool());
            if (tracked) {
                b.publishMiddleware(outbox.publishMiddleware());
            }
            QueueBroker broker = b.build();
            try {
                Publisher publisher = broker.publisher();
                RoleBinding<Record> inbox = t.inbox().binding(form(db.engine()));
                DSLContext dsl = DSL.using(new DefaultConfiguration().set(db.pool())
                        .set(db.dialect().sqlDialect()).set(outbox.transactionListener()));
                Measurement m = spread(threads, messages, () -> dsl.transaction(cfg -> publisher.publish(
                        DSL.using(cfg), inbox, Message.of(BenchTable.GROUP, BenchDatabase.PAYLOAD))));
                check(db, t.inbox().getName(), "1 = 1", messages);
                check(db, t.records().getName(), "1 = 1", tracked ? messages : 0);
                return m;
            } finally {
                broker.close();
            }
        } finally {
            drop(db, t);
        }
    }

    /**
     * {@code messages} rows of an inbox, each carrying the id of an unprocessed record, delivered to a no-op
     * handler by {@code workers} workers; every row (and, tracked, every record) must end processed.
     */
    static Measurement consume(BenchDatabase db, int workers, long messages, boolean tracked, Duration timeout)
            throws Exception {
        Tables t = create(db);
        try (Outbox outbox = outbox(db, t)) {
            prefill(db, t, messages);
            CountDownLatch settled = new CountDownLatch(Math.toIntExact(messages));
            AtomicReference<Throwable> failure = new AtomicReference<>();
            QueueBroker.Builder b = QueueBroker.builder(db.pool()).pollInterval(BrokerRun.POLL)
                    .drainTimeout(Duration.ofSeconds(10)).listener(new BrokerListener() {
                        @Override
                        public void settled(Delivery delivery, Outcome outcome) {
                            settled.countDown();
                        }

                        @Override
                        public void settlementFailed(Delivery delivery, Outcome outcome, Throwable e) {
                            failure.compareAndSet(null, e);
                        }
                    });
            if (tracked) {
                b.handlerMiddleware(outbox.handlerMiddleware());
            }
            QueueBroker broker = b.build();
            broker.subscribe(InboxQueue.of(t.inbox().binding(form(db.engine())), BenchTable.GROUP)).bytes().workers(workers)
                    .handle((payload, delivery) -> Outcome.ack());
            try {
                Stopwatch watch = Stopwatch.start();
                broker.start();
                BrokerRun.await(settled, failure, timeout);
                Measurement m = watch.stop(messages);
                check(db, t.inbox().getName(), "processed_at IS NULL", 0);
                check(db, t.records().getName(), "processed_at IS NULL", tracked ? 0 : messages);
                return m;
            } finally {
                broker.close();
            }
        } finally {
            drop(db, t);
        }
    }

    private static void check(BenchDatabase db, String table, String condition, long expected) {
        long rows = db.count(table, condition);
        if (rows != expected) {
            throw new IllegalStateException(table + " has " + rows + " row(s) where " + condition + ", not "
                    + expected);
        }
    }

    private interface Work {
        void run() throws Exception;
    }

    /** {@code work} run {@code messages} times, shared by {@code threads} threads, and timed. */
    private static Measurement spread(int threads, long messages, Work work) throws Exception {
        return Publishing.spread(threads, messages, 1, (count, batch) -> {
            for (long k = 0; k < count; k++) {
                work.run();
            }
        });
    }
}
