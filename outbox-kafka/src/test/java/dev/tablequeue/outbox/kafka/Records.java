package dev.tablequeue.outbox.kafka;

import dev.tablequeue.outbox.OutboxBinding;
import java.time.temporal.Temporal;
import org.jooq.Record;
import org.jooq.TableField;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jooq.impl.TableImpl;

/** An outbox record table as jOOQ's generator describes one, with the time type of the database under test. */
final class Records extends TableImpl<Record> {
    private static final long serialVersionUID = 1L;

    final TableField<Record, Long> ID;
    final TableField<Record, String> NAME;
    final TableField<Record, byte[]> PAYLOAD;
    final TableField<Record, String> HEADERS;
    final TableField<Record, ? extends Temporal> PROCESSED_AT;
    final TableField<Record, ? extends Temporal> LOCKED_UNTIL;
    private final KafkaDatabase database;

    @SuppressWarnings("removal")
    Records(String name, KafkaDatabase database) {
        super(DSL.name(name));
        this.database = database;
        ID = createField(DSL.name("id"), SQLDataType.BIGINT.nullable(false).identity(true), this, "");
        NAME = createField(DSL.name("name"), SQLDataType.VARCHAR(191).nullable(false), this, "");
        PAYLOAD = createField(DSL.name("payload"), SQLDataType.BLOB.nullable(false), this, "");
        HEADERS = createField(DSL.name("headers"), SQLDataType.CLOB, this, "");
        PROCESSED_AT = createField(DSL.name("processed_at"), database.timeType().nullable(true), this, "");
        LOCKED_UNTIL = createField(DSL.name("locked_until"), database.timeType().nullable(true), this, "");
    }

    String ddl() {
        return database.records(getName());
    }

    /** The binding of every column; {@code builder} may add to it (a mode of completion). */
    OutboxBinding.Builder<Record> binding() {
        return OutboxBinding.of(this, ID, NAME, PAYLOAD).headers(HEADERS).processedAt(PROCESSED_AT)
                .lease(LOCKED_UNTIL);
    }
}
