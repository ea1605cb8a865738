package dev.tablequeue.spring;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.SqliteTime;
import dev.tablequeue.test.Engine;
import java.time.OffsetDateTime;
import org.jooq.DataType;
import org.jooq.Record;
import org.jooq.TableField;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jooq.impl.TableImpl;

/**
 * The starter suite's queue table, as jOOQ's generator describes it on each database: on PostgreSQL in the
 * row lock form, on SQLite (which has no row locks) in the lease form.
 */
final class JobTable extends TableImpl<Record> {
    private static final long serialVersionUID = 1L;

    final TableField<Record, Long> ID;
    final TableField<Record, String> GRP;
    final TableField<Record, OffsetDateTime> RETRY_AFTER;
    final TableField<Record, Integer> ATTEMPT;
    final TableField<Record, OffsetDateTime> PROCESSED_AT;
    final TableField<Record, OffsetDateTime> LOCKED_UNTIL;
    final TableField<Record, byte[]> PAYLOAD;
    private final Engine engine;
    private final RoleBinding<Record> binding;

    JobTable(Engine engine) {
        super(DSL.name("jobs"));
        this.engine = engine;
        DataType<OffsetDateTime> time = engine == Engine.SQLITE
                ? SQLDataType.VARCHAR.asConvertedDataType(new SqliteTime())
                : SQLDataType.TIMESTAMPWITHTIMEZONE(6);
        ID = createField(DSL.name("id"), serial(), this, "");
        GRP = createField(DSL.name("grp"), SQLDataType.VARCHAR(191).nullable(false), this, "");
        RETRY_AFTER = createField(DSL.name("retry_after"),
                time.nullable(false).defaultValue(DSL.field("now()", time)), this, "");
        ATTEMPT = createField(DSL.name("attempt"), SQLDataType.INTEGER.nullable(false).defaultValue(DSL.inline(1)),
                this, "");
        PROCESSED_AT = createField(DSL.name("processed_at"), time.nullable(true), this, "");
        LOCKED_UNTIL = createField(DSL.name("locked_until"), time.nullable(true), this, "");
        PAYLOAD = createField(DSL.name("payload"), SQLDataType.BLOB.nullable(false), this, "");
        RoleBinding.Builder<Record> b = RoleBinding.of(this, ID).group(GRP).retryAfter(RETRY_AFTER).attempt(ATTEMPT)
                .processedAt(PROCESSED_AT).payload(PAYLOAD);
        if (engine == Engine.SQLITE) {
            b.lease(LOCKED_UNTIL);
        }
        this.binding = b.build();
    }

    /** An identity id; identity(true), not generatedByDefaultAsIdentity() (jOOQ 3.20+), so it runs on jOOQ 3.19 too. */
    @SuppressWarnings("removal")
    private static DataType<Long> serial() {
        return SQLDataType.BIGINT.nullable(false).identity(true);
    }

    RoleBinding<Record> binding() {
        return binding;
    }

    /** The DDL of the table on {@code engine}. */
    static String ddl(Engine engine) {
        return switch (engine) {
            case POSTGRES -> "CREATE TABLE jobs (id BIGSERIAL PRIMARY KEY, grp TEXT NOT NULL,"
                    + " retry_after TIMESTAMPTZ NOT NULL DEFAULT now(), attempt INT NOT NULL DEFAULT 1,"
                    + " processed_at TIMESTAMPTZ, locked_until TIMESTAMPTZ, payload BYTEA NOT NULL)";
            case SQLITE -> "CREATE TABLE jobs (id INTEGER PRIMARY KEY AUTOINCREMENT, grp TEXT NOT NULL,"
                    + " retry_after TEXT NOT NULL DEFAULT (" + SqliteTime.NOW_SQL + "),"
                    + " attempt INTEGER NOT NULL DEFAULT 1, processed_at TEXT, locked_until TEXT, payload BLOB NOT NULL)";
            default -> throw new IllegalArgumentException("the starter suite runs on PostgreSQL and SQLite, not " + engine);
        };
    }
}
