package dev.tablequeue.maven.schedulefixture;

import java.time.OffsetDateTime;
import org.jooq.Record;
import org.jooq.TableField;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jooq.impl.TableImpl;

/** The jOOQ class of {@code fixture/schedule/V1__schedule.sql}'s table, as jOOQ generates it. */
public class ReportJobs extends TableImpl<Record> {
    private static final long serialVersionUID = 1L;

    public static final ReportJobs REPORT_JOBS = new ReportJobs();

    public final TableField<Record, Long> ID =
            createField(DSL.name("id"), SQLDataType.BIGINT.nullable(false).generatedByDefaultAsIdentity(), this, "");
    public final TableField<Record, Short> ATTEMPT = createField(DSL.name("attempt"),
            SQLDataType.SMALLINT.nullable(false).defaultValue(DSL.inline((short) 1)), this, "");
    public final TableField<Record, OffsetDateTime> LOCKED_UNTIL =
            createField(DSL.name("locked_until"), SQLDataType.TIMESTAMPWITHTIMEZONE, this, "");
    public final TableField<Record, OffsetDateTime> PROCESSED_AT =
            createField(DSL.name("processed_at"), SQLDataType.TIMESTAMPWITHTIMEZONE, this, "");
    public final TableField<Record, String> JOB_KEY =
            createField(DSL.name("job_key"), SQLDataType.VARCHAR(100), this, "");
    public final TableField<Record, byte[]> PAYLOAD =
            createField(DSL.name("payload"), SQLDataType.BLOB.nullable(false), this, "");

    private ReportJobs() {
        super(DSL.name("report_jobs"));
    }
}
