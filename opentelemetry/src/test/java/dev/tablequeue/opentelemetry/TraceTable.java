package dev.tablequeue.opentelemetry;

import dev.tablequeue.binding.RoleBinding;
import java.time.temporal.Temporal;
import org.jooq.DataType;
import org.jooq.Record;
import org.jooq.TableField;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jooq.impl.TableImpl;

/** A queue table of the tracing suite, as jOOQ's generator describes one, in the lease form (every database takes it). */
final class TraceTable extends TableImpl<Record> {
    private static final long serialVersionUID = 1L;

    final TableField<Record, Long> ID;
    final TableField<Record, String> GRP;
    final TableField<Record, ? extends Temporal> RETRY_AFTER;
    final TableField<Record, Integer> ATTEMPT;
    final TableField<Record, ? extends Temporal> PROCESSED_AT;
    final TableField<Record, ? extends Temporal> LOCKED_UNTIL;
    final TableField<Record, String> HEADERS;
    final TableField<Record, String> TRACEPARENT;
    final TableField<Record, String> TRACESTATE;
    final TableField<Record, byte[]> PAYLOAD;
    private final HeaderLayout layout;

    // identity(true), not generatedByDefaultAsIdentity() (jOOQ 3.20+): these tables also run on the jOOQ 3.19 line
    @SuppressWarnings("removal")
    TraceTable(String name, DataType<? extends Temporal> time, HeaderLayout layout) {
        super(DSL.name(name));
        this.layout = layout;
        ID = createField(DSL.name("id"), SQLDataType.BIGINT.nullable(false).identity(true), this, "");
        GRP = createField(DSL.name("grp"), SQLDataType.VARCHAR(191).nullable(false), this, "");
        RETRY_AFTER = createField(DSL.name("retry_after"), defaulted(time), this, "");
        ATTEMPT = createField(DSL.name("attempt"), SQLDataType.INTEGER.nullable(false).defaultValue(DSL.inline(1)),
                this, "");
        PROCESSED_AT = createField(DSL.name("processed_at"), time.nullable(true), this, "");
        LOCKED_UNTIL = createField(DSL.name("locked_until"), time.nullable(true), this, "");
        HEADERS = layout == HeaderLayout.COLUMN ? createField(DSL.name("headers"), SQLDataType.CLOB, this, "") : null;
        TRACEPARENT = layout == HeaderLayout.FIELDS
                ? createField(DSL.name("traceparent"), SQLDataType.CLOB, this, "") : null;
        TRACESTATE = layout == HeaderLayout.FIELDS
                ? createField(DSL.name("tracestate"), SQLDataType.CLOB, this, "") : null;
        PAYLOAD = createField(DSL.name("payload"), SQLDataType.BLOB, this, "");
    }

    /** A time column the database fills with "now" (jOOQ's generator reports the default; its text is not used). */
    private static <T> DataType<T> defaulted(DataType<T> time) {
        return time.nullable(false).defaultValue(DSL.field("now()", time));
    }

    RoleBinding<Record> binding() {
        RoleBinding.Builder<Record> b = RoleBinding.of(this, ID).group(GRP).retryAfter(RETRY_AFTER).attempt(ATTEMPT)
                .processedAt(PROCESSED_AT).lease(LOCKED_UNTIL).payload(PAYLOAD);
        switch (layout) {
            case COLUMN -> b.headers(HEADERS);
            case FIELDS -> b.headerFields(TRACEPARENT, TRACESTATE);
            case NONE -> { }
        }
        return b.build();
    }
}
