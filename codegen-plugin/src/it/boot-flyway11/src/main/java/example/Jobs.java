package example;

import org.jooq.Record;
import org.jooq.TableField;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jooq.impl.TableImpl;

/** The jOOQ class of table jobs, as jOOQ generates it from db/<database>/V1__jobs.sql. */
public class Jobs extends TableImpl<Record> {
    private static final long serialVersionUID = 1L;

    public static final Jobs JOBS = new Jobs();

    public final TableField<Record, Long> JOB_ID =
            createField(DSL.name("job_id"), SQLDataType.BIGINT.nullable(false).identity(true), this, "");
    public final TableField<Record, String> NAME =
            createField(DSL.name("name"), SQLDataType.VARCHAR(191).nullable(false), this, "");
    public final TableField<Record, Short> ATTEMPT = createField(DSL.name("attempt"),
            SQLDataType.SMALLINT.nullable(false).defaultValue(DSL.inline((short) 1)), this, "");
    public final TableField<Record, Long> ACCOUNT_ID =
            createField(DSL.name("account_id"), SQLDataType.BIGINT, this, "");
    public final TableField<Record, byte[]> PAYLOAD = createField(DSL.name("payload"), SQLDataType.BLOB, this, "");

    private Jobs() {
        super(DSL.name("jobs"));
    }
}
