package dev.tablequeue.sample;

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
            SQLDataType.BIGINT.nullable(false).generatedByDefaultAsIdentity(), this, "");
    public final TableField<Record, String> EMAIL = createField(DSL.name("email"),
            SQLDataType.CLOB.nullable(false), this, "");

    private Accounts() {
        super(DSL.name("accounts"));
    }
}
