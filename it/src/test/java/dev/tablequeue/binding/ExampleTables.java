package dev.tablequeue.binding;

import java.time.OffsetDateTime;
import org.jooq.DataType;
import org.jooq.Name;
import org.jooq.Record;
import org.jooq.TableField;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jooq.impl.TableImpl;

/**
 * The one table of the toolkit's test {@code ExampleTables} that the broker's tests here use ({@code report_jobs}),
 * copied as it is declared there: the toolkit's unit tests keep the full set, and a module cannot read another's
 * test classes.
 */
public final class ExampleTables {
    private ExampleTables() {}

    /** report_jobs: id BIGSERIAL PK, attempt SMALLINT DEFAULT 1, locked_until TIMESTAMPTZ, payload BYTEA. */
    public static final ReportJobs REPORT_JOBS = new ReportJobs();

    private static Name name(String name) {
        return DSL.name(name);
    }

    /** An identity id, as a BIGSERIAL / AUTO_INCREMENT column. */
    // identity(true), not generatedByDefaultAsIdentity() (jOOQ 3.20+): these tables also run on the jOOQ 3.19 line
    @SuppressWarnings("removal")
    private static DataType<Long> serial() {
        return SQLDataType.BIGINT.nullable(false).identity(true);
    }

    /** An attempt count that starts at 1. */
    private static DataType<Short> firstAttempt() {
        return SQLDataType.SMALLINT.nullable(false).defaultValue(DSL.inline((short) 1));
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
}
