package dev.tablequeue.outbox.kafka;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.util.Objects;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.jooq.tools.jdbc.JDBCUtils;

/**
 * The consuming service's table of the outbox messages it has handled, by topic and record id: the consumer's
 * dedup. A row is written in the handler's transaction before the handler runs, so it commits with what the
 * handler wrote, and a second copy of the message (a republish, a redelivery after a rebalance or a restart)
 * finds it and is acknowledged without its handler. The service creates the table in its own migrations:
 *
 * <pre>{@code
 * CREATE TABLE kafka_handled (
 *     topic      VARCHAR(249) NOT NULL,
 *     record_id  VARCHAR(64)  NOT NULL,
 *     handled_at TIMESTAMP    NOT NULL DEFAULT CURRENT_TIMESTAMP,
 *     PRIMARY KEY (topic, record_id)
 * )
 * }</pre>
 */
public final class HandledTable {
    /** MySQL's and MariaDB's error for a duplicate key (ER_DUP_ENTRY). */
    private static final int DUPLICATE_KEY = 1062;

    private final Table<?> table;
    private final Field<String> topic;
    private final Field<String> recordId;

    private HandledTable(Table<?> table, Field<String> topic, Field<String> recordId) {
        this.table = table;
        this.topic = topic;
        this.recordId = recordId;
    }

    /** The table named {@code name} (qualified with its schema as {@code schema.table} where needed), columns as above. */
    public static HandledTable named(String name) {
        Objects.requireNonNull(name, "name");
        return new HandledTable(DSL.table(DSL.name(name.split("\\."))), DSL.field(DSL.name("topic"), String.class),
                DSL.field(DSL.name("record_id"), String.class));
    }

    /** A table of jOOQ's generated classes, with the columns that hold the topic and the record id. */
    public static HandledTable of(Table<?> table, Field<String> topic, Field<String> recordId) {
        return new HandledTable(Objects.requireNonNull(table, "table"), Objects.requireNonNull(topic, "topic"),
                Objects.requireNonNull(recordId, "recordId"));
    }

    /** The table's name, as errors name it. */
    String name() {
        return table.getName();
    }

    /**
     * Writes the row of {@code id} from {@code topicName} on {@code c} (in its transaction): true where this is
     * the first copy, false where a row was there already (a copy handled before). A copy being handled in
     * another transaction holds the row's key: this one waits for that transaction, then finds the row.
     */
    boolean firstCopy(Connection c, String topicName, String id) {
        SQLDialect dialect = JDBCUtils.dialect(c);
        DSLContext ctx = DSL.using(c, dialect);
        if (dialect.family() != SQLDialect.MARIADB && dialect.family() != SQLDialect.MYSQL) {
            return ctx.insertInto(table, topic, recordId).values(topicName, id).onConflictDoNothing().execute() == 1;
        }
        // jOOQ renders onConflictDoNothing() as INSERT IGNORE here, which would also turn a value too long for
        // its column into a warning (two ids cut to one text, the second taken for a copy). A plain insert
        // fails on the duplicate key alone, and the server rolls back only that statement, not the transaction.
        try {
            return ctx.insertInto(table, topic, recordId).values(topicName, id).execute() == 1;
        } catch (DataAccessException e) {
            if (e.getCause(SQLIntegrityConstraintViolationException.class) instanceof SQLException s
                    && s.getErrorCode() == DUPLICATE_KEY) {
                return false;
            }
            throw e;
        }
    }
}
