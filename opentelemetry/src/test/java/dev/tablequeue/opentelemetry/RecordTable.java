package dev.tablequeue.opentelemetry;

import dev.tablequeue.outbox.OutboxBinding;
import java.time.temporal.Temporal;
import org.jooq.DataType;
import org.jooq.Record;
import org.jooq.TableField;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jooq.impl.TableImpl;

/** An outbox record table that keeps the headers a message was published with. */
final class RecordTable extends TableImpl<Record> {
    private static final long serialVersionUID = 1L;

    final TableField<Record, Long> ID;
    final TableField<Record, String> NAME;
    final TableField<Record, byte[]> PAYLOAD;
    final TableField<Record, String> HEADERS;
    final TableField<Record, ? extends Temporal> PROCESSED_AT;

    // identity(true), not generatedByDefaultAsIdentity() (jOOQ 3.20+): these tables also run on the jOOQ 3.19 line
    @SuppressWarnings("removal")
    RecordTable(String name, DataType<? extends Temporal> time) {
        super(DSL.name(name));
        ID = createField(DSL.name("id"), SQLDataType.BIGINT.nullable(false).identity(true), this, "");
        NAME = createField(DSL.name("name"), SQLDataType.VARCHAR(191).nullable(false), this, "");
        PAYLOAD = createField(DSL.name("payload"), SQLDataType.BLOB.nullable(false), this, "");
        HEADERS = createField(DSL.name("headers"), SQLDataType.CLOB, this, "");
        PROCESSED_AT = createField(DSL.name("processed_at"), time.nullable(true), this, "");
    }

    OutboxBinding<Record> binding() {
        return OutboxBinding.of(this, ID, NAME, PAYLOAD).headers(HEADERS).processedAt(PROCESSED_AT).build();
    }
}
