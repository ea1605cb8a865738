package dev.tablequeue.binding;

import java.time.OffsetDateTime;
import java.util.UUID;
import org.jooq.DataType;
import org.jooq.JSONB;
import org.jooq.Name;
import org.jooq.Record;
import org.jooq.Schema;
import org.jooq.TableField;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jooq.impl.TableImpl;

/**
 * Queue tables declared as jOOQ's code generator would declare them, with the metadata a binding reads:
 * identities, defaults and column types. They mirror the tables of the reference's examples, so a test
 * reads like the declaration a service would write.
 */
public final class ExampleTables {
    private ExampleTables() {}

    /**
     * email_jobs: job_id BIGSERIAL PK, name TEXT, retry_after TIMESTAMPTZ DEFAULT now(), attempt SMALLINT DEFAULT 1,
     * processed_at TIMESTAMPTZ, payload BYTEA.
     */
    public static final EmailJobs EMAIL_JOBS = new EmailJobs();
    /** report_jobs: id BIGSERIAL PK, attempt SMALLINT DEFAULT 1, locked_until TIMESTAMPTZ, payload BYTEA. */
    public static final ReportJobs REPORT_JOBS = new ReportJobs();
    /** jobs: job_id BIGSERIAL PK, attempt SMALLINT DEFAULT 1, payload BYTEA. */
    public static final Jobs JOBS = new Jobs();
    /** billing.payouts: id BIGSERIAL PK, account_id BIGINT, payload BYTEA; in a schema of its own. */
    public static final Payouts PAYOUTS = new Payouts();
    /** sync_jobs: id BIGSERIAL PK, target TEXT, retry_after TIMESTAMPTZ DEFAULT now(), payload BYTEA. */
    public static final SyncJobs SYNC_JOBS = new SyncJobs();
    /** support_tickets: every role a payload table can play, headers in one JSONB column. */
    public static final SupportTickets SUPPORT_TICKETS = new SupportTickets();
    /** order_jobs: a row-mode table with its headers in columns of their own. */
    public static final OrderJobs ORDER_JOBS = new OrderJobs();
    /** import_jobs: an id the publisher chooses (import_id UUID PK, no default), source TEXT, payload TEXT. */
    public static final ImportJobs IMPORT_JOBS = new ImportJobs();
    /** odd_jobs: columns of types no payload or headers column may have. */
    public static final OddJobs ODD_JOBS = new OddJobs();

    private static Name name(String name) {
        return DSL.name(name);
    }

    private static Schema schema(String name) {
        return DSL.schema(DSL.name(name));
    }

    /** An identity id, as a BIGSERIAL / AUTO_INCREMENT column. */
    // identity(true), not generatedByDefaultAsIdentity() (jOOQ 3.20+): these tables also run on the jOOQ 3.19 line
    @SuppressWarnings("removal")
    private static DataType<Long> serial() {
        return SQLDataType.BIGINT.nullable(false).identity(true);
    }

    /** A timestamp the database fills with now() when an insert leaves it out. */
    private static DataType<OffsetDateTime> dueNow() {
        return SQLDataType.TIMESTAMPWITHTIMEZONE.nullable(false).defaultValue(DSL.currentOffsetDateTime());
    }

    /** An attempt count that starts at 1. */
    private static DataType<Short> firstAttempt() {
        return SQLDataType.SMALLINT.nullable(false).defaultValue(DSL.inline((short) 1));
    }

    public static final class EmailJobs extends TableImpl<Record> {
        public final TableField<Record, Long> JOB_ID = createField(name("job_id"), serial(), this);
        public final TableField<Record, String> NAME =
                createField(name("name"), SQLDataType.CLOB.nullable(false), this);
        public final TableField<Record, OffsetDateTime> RETRY_AFTER = createField(name("retry_after"), dueNow(), this);
        public final TableField<Record, Short> ATTEMPT = createField(name("attempt"), firstAttempt(), this);
        public final TableField<Record, OffsetDateTime> PROCESSED_AT =
                createField(name("processed_at"), SQLDataType.TIMESTAMPWITHTIMEZONE, this);
        public final TableField<Record, byte[]> PAYLOAD =
                createField(name("payload"), SQLDataType.BLOB.nullable(false), this);

        private EmailJobs() {
            super(name("email_jobs"));
        }
    }

    public static final class ReportJobs extends TableImpl<Record> {
        public final TableField<Record, Long> ID = createField(name("id"), serial(), this);
        public final TableField<Record, Short> ATTEMPT = createField(name("attempt"), firstAttempt(), this);
        public final TableField<Record, OffsetDateTime> LOCKED_UNTIL =
                createField(name("locked_until"), SQLDataType.TIMESTAMPWITHTIMEZONE, this);
        public final TableField<Record, byte[]> PAYLOAD =
                createField(name("payload"), SQLDataType.BLOB.nullable(false), this);

        private ReportJobs() {
            super(name("report_jobs"));
        }
    }

    public static final class Jobs extends TableImpl<Record> {
        public final TableField<Record, Long> JOB_ID = createField(name("job_id"), serial(), this);
        public final TableField<Record, Short> ATTEMPT = createField(name("attempt"), firstAttempt(), this);
        public final TableField<Record, byte[]> PAYLOAD =
                createField(name("payload"), SQLDataType.BLOB.nullable(false), this);

        private Jobs() {
            super(name("jobs"));
        }
    }

    public static final class Payouts extends TableImpl<Record> {
        public final TableField<Record, Long> ID = createField(name("id"), serial(), this);
        public final TableField<Record, Long> ACCOUNT_ID =
                createField(name("account_id"), SQLDataType.BIGINT.nullable(false), this);
        public final TableField<Record, byte[]> PAYLOAD =
                createField(name("payload"), SQLDataType.BLOB.nullable(false), this);

        private Payouts() {
            super(name("payouts"), schema("billing"));
        }
    }

    public static final class SyncJobs extends TableImpl<Record> {
        public final TableField<Record, Long> ID = createField(name("id"), serial(), this);
        public final TableField<Record, String> TARGET =
                createField(name("target"), SQLDataType.CLOB.nullable(false), this);
        public final TableField<Record, OffsetDateTime> RETRY_AFTER = createField(name("retry_after"), dueNow(), this);
        public final TableField<Record, byte[]> PAYLOAD =
                createField(name("payload"), SQLDataType.BLOB.nullable(false), this);

        private SyncJobs() {
            super(name("sync_jobs"));
        }
    }

    /** Columns declared in an order other than the roles', so insert order shows it follows the roles. */
    public static final class SupportTickets extends TableImpl<Record> {
        public final TableField<Record, byte[]> PAYLOAD =
                createField(name("payload"), SQLDataType.BLOB.nullable(false), this);
        public final TableField<Record, JSONB> HEADERS = createField(name("headers"), SQLDataType.JSONB, this);
        public final TableField<Record, OffsetDateTime> PROCESSED_AT =
                createField(name("processed_at"), SQLDataType.TIMESTAMPWITHTIMEZONE, this);
        public final TableField<Record, Short> ATTEMPT = createField(name("attempt"), firstAttempt(), this);
        public final TableField<Record, OffsetDateTime> RETRY_AFTER = createField(name("retry_after"), dueNow(), this);
        public final TableField<Record, String> CUSTOMER =
                createField(name("customer"), SQLDataType.CLOB.nullable(false), this);
        public final TableField<Record, Short> URGENCY =
                createField(name("urgency"), SQLDataType.SMALLINT.nullable(false), this);
        public final TableField<Record, String> QUEUE =
                createField(name("queue"), SQLDataType.CLOB.nullable(false), this);
        public final TableField<Record, Long> ID = createField(name("id"), serial(), this);
        public final TableField<Record, OffsetDateTime> LOCKED_UNTIL =
                createField(name("locked_until"), SQLDataType.TIMESTAMPWITHTIMEZONE, this);
        public final TableField<Record, String> LAST_ERROR = createField(name("last_error"), SQLDataType.CLOB, this);

        private SupportTickets() {
            super(name("support_tickets"));
        }
    }

    /**
     * order_jobs: job_id BIGSERIAL PK, name TEXT, attempt SMALLINT DEFAULT 1, tenant TEXT, trace TEXT,
     * order_id BIGINT, note TEXT, created_at TIMESTAMPTZ DEFAULT now(), checksum TEXT (filled by a trigger),
     * tenant_key TEXT GENERATED ALWAYS AS (upper(tenant)) STORED.
     */
    public static final class OrderJobs extends TableImpl<Record> {
        public final TableField<Record, Long> JOB_ID = createField(name("job_id"), serial(), this);
        public final TableField<Record, String> NAME =
                createField(name("name"), SQLDataType.CLOB.nullable(false), this);
        public final TableField<Record, Short> ATTEMPT = createField(name("attempt"), firstAttempt(), this);
        public final TableField<Record, String> TENANT =
                createField(name("tenant"), SQLDataType.CLOB.nullable(false), this);
        public final TableField<Record, String> TRACE = createField(name("trace"), SQLDataType.CLOB, this);
        public final TableField<Record, Long> ORDER_ID =
                createField(name("order_id"), SQLDataType.BIGINT.nullable(false), this);
        public final TableField<Record, String> NOTE = createField(name("note"), SQLDataType.CLOB, this);
        public final TableField<Record, OffsetDateTime> CREATED_AT = createField(name("created_at"), dueNow(), this);
        public final TableField<Record, String> CHECKSUM = createField(name("checksum"), SQLDataType.CLOB, this);
        public final TableField<Record, String> TENANT_KEY =
                createField(name("tenant_key"), SQLDataType.CLOB.generatedAlwaysAs(DSL.upper(TENANT)), this);

        private OrderJobs() {
            super(name("order_jobs"));
        }
    }

    public static final class ImportJobs extends TableImpl<Record> {
        public final TableField<Record, UUID> IMPORT_ID =
                createField(name("import_id"), SQLDataType.UUID.nullable(false), this);
        public final TableField<Record, String> SOURCE =
                createField(name("source"), SQLDataType.CLOB.nullable(false), this);
        public final TableField<Record, String> PAYLOAD =
                createField(name("payload"), SQLDataType.CLOB.nullable(false), this);

        private ImportJobs() {
            super(name("import_jobs"));
        }
    }

    /**
     * odd_jobs: id BIGSERIAL PK, body INTEGER, meta BIGINT, and text columns no last error may use (short
     * VARCHAR(40), reason TEXT NOT NULL) or may (failure VARCHAR(255)).
     */
    public static final class OddJobs extends TableImpl<Record> {
        public final TableField<Record, Long> ID = createField(name("id"), serial(), this);
        public final TableField<Record, Integer> BODY = createField(name("body"), SQLDataType.INTEGER, this);
        public final TableField<Record, Long> META = createField(name("meta"), SQLDataType.BIGINT, this);
        public final TableField<Record, String> SHORT = createField(name("short"), SQLDataType.VARCHAR(40), this);
        public final TableField<Record, String> REASON =
                createField(name("reason"), SQLDataType.CLOB.nullable(false), this);
        public final TableField<Record, String> FAILURE =
                createField(name("failure"), SQLDataType.VARCHAR(255), this);

        private OddJobs() {
            super(name("odd_jobs"));
        }
    }
}
