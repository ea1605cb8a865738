package dev.tablequeue.bench;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import java.time.temporal.Temporal;
import org.jooq.DataType;
import org.jooq.Record;
import org.jooq.TableField;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jooq.impl.TableImpl;

/**
 * A queue table of the benchmark, described as jOOQ's code generator describes one: a group, a priority, a
 * due time, an attempt counter, a processed_at stamp, a lease column (read only in the lease form) and a
 * payload. Its DDL, with an index in claim order, comes from {@link Engine#createTable}.
 */
final class BenchTable extends TableImpl<Record> {
    private static final long serialVersionUID = 1L;

    /** The group every message of the benchmark is published under. */
    static final String GROUP = "bench";

    final TableField<Record, Long> ID;
    final TableField<Record, String> GRP;
    final TableField<Record, Integer> PRIORITY;
    final TableField<Record, ? extends Temporal> RETRY_AFTER;
    final TableField<Record, Integer> ATTEMPT;
    final TableField<Record, ? extends Temporal> PROCESSED_AT;
    final TableField<Record, ? extends Temporal> LOCKED_UNTIL;
    final TableField<Record, byte[]> PAYLOAD;

    BenchTable(String name, DataType<? extends Temporal> time) {
        super(DSL.name(name));
        ID = createField(DSL.name("id"), SQLDataType.BIGINT.nullable(false).generatedByDefaultAsIdentity(), this, "");
        GRP = createField(DSL.name("grp"), SQLDataType.VARCHAR(100).nullable(false), this, "");
        PRIORITY = createField(DSL.name("priority"), SQLDataType.INTEGER.nullable(false)
                .defaultValue(DSL.inline(0)), this, "");
        RETRY_AFTER = createField(DSL.name("retry_after"), defaulted(time), this, "");
        ATTEMPT = createField(DSL.name("attempt"), SQLDataType.INTEGER.nullable(false)
                .defaultValue(DSL.inline(1)), this, "");
        PROCESSED_AT = createField(DSL.name("processed_at"), time.nullable(true), this, "");
        LOCKED_UNTIL = createField(DSL.name("locked_until"), time.nullable(true), this, "");
        PAYLOAD = createField(DSL.name("payload"), SQLDataType.BLOB, this, "");
    }

    private static <T> DataType<T> defaulted(DataType<T> time) {
        return time.nullable(false).defaultValue(DSL.field("now()", time));
    }

    /** The binding publishes and prefills write through: the first form {@code engine} serves (same insert in all). */
    RoleBinding<Record> publishBinding(Engine engine) {
        return binding(engine.forms().iterator().next());
    }

    /** The binding of this table in {@code form}: every role the table has, processed rows kept. */
    RoleBinding<Record> binding(Form form) {
        RoleBinding.Builder<Record> b = RoleBinding.of(this, ID)
                .group(GRP)
                .priority(PRIORITY)
                .retryAfter(RETRY_AFTER)
                .attempt(ATTEMPT)
                .processedAt(PROCESSED_AT)
                .payload(PAYLOAD);
        switch (form) {
            case LEASE -> b.lease(LOCKED_UNTIL);
            case ADVISORY -> b.advisory(getName() + "-{id}");
            case ROW_LOCK -> { }
        }
        return b.build();
    }
}
