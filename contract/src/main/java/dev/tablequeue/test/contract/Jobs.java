package dev.tablequeue.test.contract;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import java.time.temporal.Temporal;
import org.jooq.DataType;
import org.jooq.Record;
import org.jooq.Schema;
import org.jooq.TableField;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jooq.impl.TableImpl;

/**
 * The queue table every contract suite runs on: a column for every role, described as jOOQ's code generator
 * describes a table, with the time type of the database under test. Its DDL on each database is the hook's
 * ({@link ContractDatabase#createTable}).
 */
public final class Jobs extends TableImpl<Record> {
    private static final long serialVersionUID = 1L;

    public final TableField<Record, Long> ID;
    public final TableField<Record, String> GRP;
    public final TableField<Record, Integer> PRIORITY;
    public final TableField<Record, String> PARTITION_KEY;
    public final TableField<Record, ? extends Temporal> RETRY_AFTER;
    public final TableField<Record, Integer> ATTEMPT;
    public final TableField<Record, ? extends Temporal> PROCESSED_AT;
    public final TableField<Record, ? extends Temporal> LOCKED_UNTIL;
    public final TableField<Record, String> HEADERS;
    public final TableField<Record, byte[]> PAYLOAD;
    public final TableField<Record, String> NOTE;
    public final TableField<Record, String> LAST_ERROR;

    /** The table {@code name}, its time columns of type {@code time}. */
    public Jobs(String name, DataType<? extends Temporal> time) {
        this(null, name, time);
    }

    /**
     * The table {@code name} of {@code schema} (null: none), as jOOQ generates a table on a database that names
     * its schema ({@code public} on PostgreSQL), its time columns of type {@code time}.
     */
    // identity(true), not generatedByDefaultAsIdentity() (jOOQ 3.20+): the kit also runs on the jOOQ 3.19 line
    @SuppressWarnings("removal")
    public Jobs(Schema schema, String name, DataType<? extends Temporal> time) {
        super(DSL.name(name), schema);
        ID = createField(DSL.name("id"), SQLDataType.BIGINT.nullable(false).identity(true), this, "");
        GRP = createField(DSL.name("grp"), SQLDataType.VARCHAR(100), this, "");
        PRIORITY = createField(DSL.name("priority"), SQLDataType.INTEGER.nullable(false)
                .defaultValue(DSL.inline(0)), this, "");
        PARTITION_KEY = createField(DSL.name("partition_key"), SQLDataType.VARCHAR(100), this, "");
        RETRY_AFTER = createField(DSL.name("retry_after"), defaulted(time), this, "");
        ATTEMPT = createField(DSL.name("attempt"), SQLDataType.INTEGER.nullable(false)
                .defaultValue(DSL.inline(1)), this, "");
        PROCESSED_AT = createField(DSL.name("processed_at"), time.nullable(true), this, "");
        LOCKED_UNTIL = createField(DSL.name("locked_until"), time.nullable(true), this, "");
        HEADERS = createField(DSL.name("headers"), SQLDataType.CLOB, this, "");
        PAYLOAD = createField(DSL.name("payload"), SQLDataType.BLOB, this, "");
        NOTE = createField(DSL.name("note"), SQLDataType.VARCHAR(100), this, "");
        LAST_ERROR = createField(DSL.name("last_error"), SQLDataType.CLOB, this, "");
    }

    /** A payload-mode binding of {@code t} with every ordering role, in {@code form}. */
    public static RoleBinding<Record> binding(Jobs t, Form form) {
        RoleBinding.Builder<Record> b = payloadRoles(t);
        switch (form) {
            case LEASE -> b.lease(t.LOCKED_UNTIL);
            case ADVISORY -> b.advisory(t.getName() + "-{id}");
            case ROW_LOCK -> { }
        }
        return b.build();
    }

    /** A payload-mode binding of {@code t} with every ordering role, under construction: its form is the caller's. */
    public static RoleBinding.Builder<Record> payloadRoles(Jobs t) {
        return RoleBinding.of(t, t.ID)
                .group(t.GRP)
                .priority(t.PRIORITY)
                .retryAfter(t.RETRY_AFTER)
                .attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT)
                .payload(t.PAYLOAD);
    }

    private static <T> DataType<T> defaulted(DataType<T> time) {
        return time.nullable(false).defaultValue(DSL.field("now()", time));
    }
}
