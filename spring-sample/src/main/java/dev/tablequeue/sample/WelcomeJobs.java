package dev.tablequeue.sample;

import dev.tablequeue.dialect.SqliteTime;
import java.time.OffsetDateTime;
import org.jooq.DataType;
import org.jooq.Record;
import org.jooq.TableField;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jooq.impl.TableImpl;

/**
 * The {@code welcome_jobs} table of {@code schema.sql}, as jOOQ's generator writes it for SQLite with
 * tablequeue's forced type for time columns ({@link SqliteTime}); a service generates this class.
 */
public final class WelcomeJobs extends TableImpl<Record> {
    private static final long serialVersionUID = 1L;
    private static final DataType<OffsetDateTime> TIME = SQLDataType.VARCHAR.asConvertedDataType(new SqliteTime());

    /** The table. */
    public static final WelcomeJobs WELCOME_JOBS = new WelcomeJobs();

    public final TableField<Record, Long> ID = createField(DSL.name("id"),
            serial(), this, "");
    public final TableField<Record, String> NAME = createField(DSL.name("name"),
            SQLDataType.CLOB.nullable(false), this, "");
    public final TableField<Record, OffsetDateTime> RETRY_AFTER = createField(DSL.name("retry_after"),
            TIME.nullable(false).defaultValue(DSL.field(SqliteTime.NOW_SQL, TIME)), this, "");
    public final TableField<Record, Integer> ATTEMPT = createField(DSL.name("attempt"),
            SQLDataType.INTEGER.nullable(false).defaultValue(DSL.inline(1)), this, "");
    public final TableField<Record, OffsetDateTime> PROCESSED_AT = createField(DSL.name("processed_at"), TIME, this, "");
    public final TableField<Record, OffsetDateTime> LOCKED_UNTIL = createField(DSL.name("locked_until"), TIME, this, "");
    public final TableField<Record, byte[]> PAYLOAD = createField(DSL.name("payload"),
            SQLDataType.BLOB.nullable(false), this, "");

    /** An identity id; identity(true), not generatedByDefaultAsIdentity() (jOOQ 3.20+), so it runs on jOOQ 3.19 too. */
    @SuppressWarnings("removal")
    private static DataType<Long> serial() {
        return SQLDataType.BIGINT.nullable(false).identity(true);
    }

    private WelcomeJobs() {
        super(DSL.name("welcome_jobs"));
    }
}
