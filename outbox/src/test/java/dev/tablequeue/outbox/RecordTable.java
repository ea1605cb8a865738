package dev.tablequeue.outbox;

import java.time.temporal.Temporal;
import org.jooq.DataType;
import org.jooq.Record;
import org.jooq.TableField;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jooq.impl.TableImpl;

/** An outbox record table as jOOQ's generator describes one, with the time type of the database under test. */
public final class RecordTable extends TableImpl<Record> {
    private static final long serialVersionUID = 1L;

    public final TableField<Record, Long> ID;
    public final TableField<Record, String> NAME;
    public final TableField<Record, byte[]> PAYLOAD;
    public final TableField<Record, String> HEADERS;
    public final TableField<Record, ? extends Temporal> PROCESSED_AT;
    public final TableField<Record, ? extends Temporal> LOCKED_UNTIL;
    private final DoneWhen doneWhen;

    // identity(true), not generatedByDefaultAsIdentity() (jOOQ 3.20+): these tables also run on the jOOQ 3.19 line
    @SuppressWarnings("removal")
    public RecordTable(String name, DataType<? extends Temporal> time) {
        this(name, time, null);
    }

    /** A table whose bindings say {@code doneWhen} (null: they leave it to the transport). */
    @SuppressWarnings("removal")
    public RecordTable(String name, DataType<? extends Temporal> time, DoneWhen doneWhen) {
        super(DSL.name(name));
        this.doneWhen = doneWhen;
        ID = createField(DSL.name("id"), SQLDataType.BIGINT.nullable(false).identity(true), this, "");
        NAME = createField(DSL.name("name"), SQLDataType.VARCHAR(191).nullable(false), this, "");
        PAYLOAD = createField(DSL.name("payload"), SQLDataType.BLOB.nullable(false), this, "");
        HEADERS = createField(DSL.name("headers"), SQLDataType.CLOB, this, "");
        PROCESSED_AT = createField(DSL.name("processed_at"), time.nullable(true), this, "");
        LOCKED_UNTIL = createField(DSL.name("locked_until"), time.nullable(true), this, "");
    }

    /** The binding of every column: headers, processed_at and the lease. */
    public OutboxBinding<Record> binding() {
        return builder().headers(HEADERS).processedAt(PROCESSED_AT).lease(LOCKED_UNTIL).build();
    }

    /** The binding of the id, the name and the payload, done when the table says. */
    public OutboxBinding.Builder<Record> builder() {
        OutboxBinding.Builder<Record> b = OutboxBinding.of(this, ID, NAME, PAYLOAD);
        return doneWhen == null ? b : b.doneWhen(doneWhen);
    }
}
