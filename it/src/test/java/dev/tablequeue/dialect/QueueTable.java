package dev.tablequeue.dialect;

import java.time.OffsetDateTime;
import java.time.temporal.Temporal;
import org.jooq.DataType;
import org.jooq.Record;
import org.jooq.TableField;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jooq.impl.TableImpl;

/**
 * A queue table with a column for every role, described as jOOQ's code generator would describe it, with
 * the time type of the database under test.
 *
 * <p>A copy of the toolkit's test helper of the same name, which the toolkit's own tests keep using (a module
 * cannot read another's test classes): a change to one belongs in both.
 */
final class QueueTable<T extends Temporal> extends TableImpl<Record> {
    private static final long serialVersionUID = 1L;

    final TableField<Record, Long> ID;
    final TableField<Record, String> GRP;
    final TableField<Record, Integer> PRIORITY;
    final TableField<Record, String> PARTITION_KEY;
    final TableField<Record, T> RETRY_AFTER;
    final TableField<Record, Integer> ATTEMPT;
    final TableField<Record, T> PROCESSED_AT;
    final TableField<Record, T> LOCKED_UNTIL;
    final TableField<Record, String> HEADERS;
    final TableField<Record, byte[]> PAYLOAD;
    final TableField<Record, String> NOTE;
    final TableField<Record, String> LAST_ERROR;

    // identity(true), not generatedByDefaultAsIdentity() (jOOQ 3.20+): these tables also run on the jOOQ 3.19 line
    @SuppressWarnings("removal")
    QueueTable(String name, DataType<T> time) {
        super(DSL.name(name));
        ID = createField(DSL.name("id"), SQLDataType.BIGINT.nullable(false).identity(true), this, "");
        GRP = createField(DSL.name("grp"), SQLDataType.VARCHAR(100), this, "");
        PRIORITY = createField(DSL.name("priority"), SQLDataType.INTEGER.nullable(false)
                .defaultValue(DSL.inline(0)), this, "");
        PARTITION_KEY = createField(DSL.name("partition_key"), SQLDataType.VARCHAR(100), this, "");
        RETRY_AFTER = createField(DSL.name("retry_after"), time.nullable(false).defaultValue(
                DSL.field("now", time)), this, "");
        ATTEMPT = createField(DSL.name("attempt"), SQLDataType.INTEGER.nullable(false)
                .defaultValue(DSL.inline(1)), this, "");
        PROCESSED_AT = createField(DSL.name("processed_at"), time.nullable(true), this, "");
        LOCKED_UNTIL = createField(DSL.name("locked_until"), time.nullable(true), this, "");
        HEADERS = createField(DSL.name("headers"), SQLDataType.CLOB, this, "");
        PAYLOAD = createField(DSL.name("payload"), SQLDataType.BLOB, this, "");
        NOTE = createField(DSL.name("note"), SQLDataType.VARCHAR(100), this, "");
        LAST_ERROR = createField(DSL.name("last_error"), SQLDataType.CLOB, this, "");
    }

    /** The PostgreSQL time type. */
    static DataType<OffsetDateTime> pgTime() {
        return SQLDataType.TIMESTAMPWITHTIMEZONE(6);
    }
}
