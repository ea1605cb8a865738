package dev.tablequeue.test;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.SqliteTime;
import java.time.temporal.Temporal;
import org.jooq.DataType;
import org.jooq.Record;
import org.jooq.TableField;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jooq.impl.TableImpl;

/** The kit's test migrations' {@code kit_jobs} table, as jOOQ's generator would describe it, per engine. */
final class KitJobs extends TableImpl<Record> {
    private static final long serialVersionUID = 1L;

    final TableField<Record, Long> ID;
    final TableField<Record, String> GRP;
    final TableField<Record, ? extends Temporal> RETRY_AFTER;
    final TableField<Record, Integer> ATTEMPT;
    final TableField<Record, ? extends Temporal> PROCESSED_AT;
    final TableField<Record, ? extends Temporal> LOCKED_UNTIL;
    final TableField<Record, String> PAYLOAD;

    // identity(true), not generatedByDefaultAsIdentity() (jOOQ 3.20+): the kit also runs on the jOOQ 3.19 line
    @SuppressWarnings("removal")
    KitJobs(Engine engine) {
        super(DSL.name("kit_jobs"));
        DataType<? extends Temporal> time = switch (engine) {
            case POSTGRES -> SQLDataType.TIMESTAMPWITHTIMEZONE(6);
            case MARIADB, MYSQL -> SQLDataType.LOCALDATETIME(6);
            case SQLITE -> SQLDataType.VARCHAR.asConvertedDataType(new SqliteTime());
        };
        ID = createField(DSL.name("id"), SQLDataType.BIGINT.nullable(false).identity(true), this, "");
        GRP = createField(DSL.name("grp"), SQLDataType.VARCHAR(100).nullable(false), this, "");
        RETRY_AFTER = createField(DSL.name("retry_after"), defaulted(time), this, "");
        ATTEMPT = createField(DSL.name("attempt"), SQLDataType.INTEGER.nullable(false).defaultValue(DSL.inline(1)),
                this, "");
        PROCESSED_AT = createField(DSL.name("processed_at"), time.nullable(true), this, "");
        LOCKED_UNTIL = createField(DSL.name("locked_until"), time.nullable(true), this, "");
        PAYLOAD = createField(DSL.name("payload"), SQLDataType.CLOB, this, "");
    }

    private static <T> DataType<T> defaulted(DataType<T> time) {
        return time.nullable(false).defaultValue(DSL.field("now()", time));
    }

    /** A lease-form binding (the form every engine takes). */
    RoleBinding<Record> binding() {
        return RoleBinding.of(this, ID)
                .group(GRP)
                .retryAfter(RETRY_AFTER)
                .attempt(ATTEMPT)
                .processedAt(PROCESSED_AT)
                .lease(LOCKED_UNTIL)
                .payload(PAYLOAD)
                .build();
    }
}
