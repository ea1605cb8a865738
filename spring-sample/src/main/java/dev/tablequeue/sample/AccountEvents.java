package dev.tablequeue.sample;

import org.jooq.DataType;
import org.jooq.Record;
import org.jooq.TableField;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jooq.impl.TableImpl;

/** The {@code account_events} table of {@code schema.sql}, as jOOQ's generator writes it; a service generates this class. */
public final class AccountEvents extends TableImpl<Record> {
    private static final long serialVersionUID = 1L;

    /** The table. */
    public static final AccountEvents ACCOUNT_EVENTS = new AccountEvents();

    public final TableField<Record, Long> ID = createField(DSL.name("id"), serial(), this, "");
    public final TableField<Record, String> NAME = createField(DSL.name("name"),
            SQLDataType.CLOB.nullable(false), this, "");
    public final TableField<Record, byte[]> PAYLOAD = createField(DSL.name("payload"),
            SQLDataType.BLOB.nullable(false), this, "");
    public final TableField<Record, String> HEADERS = createField(DSL.name("headers"), SQLDataType.CLOB, this, "");

    /** An identity id; identity(true), not generatedByDefaultAsIdentity() (jOOQ 3.20+), so it runs on jOOQ 3.19 too. */
    @SuppressWarnings("removal")
    private static DataType<Long> serial() {
        return SQLDataType.BIGINT.nullable(false).identity(true);
    }

    private AccountEvents() {
        super(DSL.name("account_events"));
    }
}
