package dev.tablequeue.sample;

import org.jooq.DataType;
import org.jooq.Record;
import org.jooq.TableField;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jooq.impl.TableImpl;

/** The {@code accounts} table of {@code schema.sql}, as jOOQ's generator writes it; a service generates this class. */
public final class Accounts extends TableImpl<Record> {
    private static final long serialVersionUID = 1L;

    /** The table. */
    public static final Accounts ACCOUNTS = new Accounts();

    public final TableField<Record, Long> ID = createField(DSL.name("id"),
            serial(), this, "");
    public final TableField<Record, String> EMAIL = createField(DSL.name("email"),
            SQLDataType.CLOB.nullable(false), this, "");

    /** An identity id; identity(true), not generatedByDefaultAsIdentity() (jOOQ 3.20+), so it runs on jOOQ 3.19 too. */
    @SuppressWarnings("removal")
    private static DataType<Long> serial() {
        return SQLDataType.BIGINT.nullable(false).identity(true);
    }

    private Accounts() {
        super(DSL.name("accounts"));
    }
}
