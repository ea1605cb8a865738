package dev.tablequeue.outbox;

import dev.tablequeue.binding.RoleBinding;
import java.time.temporal.Temporal;
import org.jooq.DataType;
import org.jooq.Record;
import org.jooq.TableField;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jooq.impl.TableImpl;

/** A queue table of the table broker that keeps headers, so a tracked message's record id travels in a row. */
public final class InboxTable extends TableImpl<Record> {
    private static final long serialVersionUID = 1L;

    public final TableField<Record, Long> ID;
    public final TableField<Record, String> GRP;
    public final TableField<Record, ? extends Temporal> RETRY_AFTER;
    public final TableField<Record, Integer> ATTEMPT;
    public final TableField<Record, ? extends Temporal> PROCESSED_AT;
    public final TableField<Record, ? extends Temporal> LOCKED_UNTIL;
    public final TableField<Record, String> HEADERS;
    public final TableField<Record, byte[]> PAYLOAD;

    // identity(true), not generatedByDefaultAsIdentity() (jOOQ 3.20+): these tables also run on the jOOQ 3.19 line
    @SuppressWarnings("removal")
    public InboxTable(String name, DataType<? extends Temporal> time) {
        super(DSL.name(name));
        ID = createField(DSL.name("id"), SQLDataType.BIGINT.nullable(false).identity(true), this, "");
        GRP = createField(DSL.name("grp"), SQLDataType.VARCHAR(191).nullable(false), this, "");
        RETRY_AFTER = createField(DSL.name("retry_after"), defaulted(time), this, "");
        ATTEMPT = createField(DSL.name("attempt"), SQLDataType.INTEGER.nullable(false)
                .defaultValue(DSL.inline(1)), this, "");
        PROCESSED_AT = createField(DSL.name("processed_at"), time.nullable(true), this, "");
        LOCKED_UNTIL = createField(DSL.name("locked_until"), time.nullable(true), this, "");
        HEADERS = createField(DSL.name("headers"), SQLDataType.CLOB, this, "");
        PAYLOAD = createField(DSL.name("payload"), SQLDataType.BLOB, this, "");
    }

    private static <T> DataType<T> defaulted(DataType<T> time) {
        return time.nullable(false).defaultValue(DSL.field("now()", time));
    }

    /** The lease form (every database takes it), grouped by name, with headers. */
    public RoleBinding<Record> binding() {
        return RoleBinding.of(this, ID).group(GRP).retryAfter(RETRY_AFTER).attempt(ATTEMPT)
                .processedAt(PROCESSED_AT).lease(LOCKED_UNTIL).headers(HEADERS).payload(PAYLOAD).build();
    }
}
