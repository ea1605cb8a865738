package dev.tablequeue.outbox.kafka;

import dev.tablequeue.outbox.OutboxBinding;
import java.time.OffsetDateTime;
import org.jooq.Record;
import org.jooq.TableField;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jooq.impl.TableImpl;

/** An outbox record table on PostgreSQL, as jOOQ's generator describes one. */
final class Records extends TableImpl<Record> {
    private static final long serialVersionUID = 1L;

    final TableField<Record, Long> ID;
    final TableField<Record, String> NAME;
    final TableField<Record, byte[]> PAYLOAD;
    final TableField<Record, String> HEADERS;
    final TableField<Record, OffsetDateTime> PROCESSED_AT;
    final TableField<Record, OffsetDateTime> LOCKED_UNTIL;

    @SuppressWarnings("removal")
    Records(String name) {
        super(DSL.name(name));
        ID = createField(DSL.name("id"), SQLDataType.BIGINT.nullable(false).identity(true), this, "");
        NAME = createField(DSL.name("name"), SQLDataType.VARCHAR(191).nullable(false), this, "");
        PAYLOAD = createField(DSL.name("payload"), SQLDataType.BLOB.nullable(false), this, "");
        HEADERS = createField(DSL.name("headers"), SQLDataType.CLOB, this, "");
        PROCESSED_AT = createField(DSL.name("processed_at"), SQLDataType.TIMESTAMPWITHTIMEZONE(6), this, "");
        LOCKED_UNTIL = createField(DSL.name("locked_until"), SQLDataType.TIMESTAMPWITHTIMEZONE(6), this, "");
    }

    String ddl() {
        return "CREATE TABLE " + getName() + " (id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL, payload BYTEA NOT NULL,"
                + " headers TEXT, processed_at TIMESTAMPTZ, locked_until TIMESTAMPTZ)";
    }

    /** The binding of every column; {@code builder} may add to it (a mode of completion). */
    OutboxBinding.Builder<Record> binding() {
        return OutboxBinding.of(this, ID, NAME, PAYLOAD).headers(HEADERS).processedAt(PROCESSED_AT)
                .lease(LOCKED_UNTIL);
    }
}
