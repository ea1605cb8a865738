package example;

import org.jooq.Record;
import org.jooq.TableField;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jooq.impl.TableImpl;

/**
 * The jOOQ class of the outbox's record table outbox_records, as jOOQ generates it from db/<database>/V1__jobs.sql.
 * It keeps no processed_at (an acknowledgement deletes the record), so one class serves the three databases.
 */
public class Records extends TableImpl<Record> {
    private static final long serialVersionUID = 1L;

    public static final Records RECORDS = new Records();

    public final TableField<Record, Long> ID =
            createField(DSL.name("id"), SQLDataType.BIGINT.nullable(false).identity(true), this, "");
    public final TableField<Record, String> NAME =
            createField(DSL.name("name"), SQLDataType.VARCHAR(191).nullable(false), this, "");
    public final TableField<Record, byte[]> PAYLOAD =
            createField(DSL.name("payload"), SQLDataType.BLOB.nullable(false), this, "");
    public final TableField<Record, String> HEADERS = createField(DSL.name("headers"), SQLDataType.CLOB, this, "");

    private Records() {
        super(DSL.name("outbox_records"));
    }
}
