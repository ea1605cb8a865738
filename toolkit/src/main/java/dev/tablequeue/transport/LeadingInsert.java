package dev.tablequeue.transport;

import java.util.List;
import java.util.Objects;
import org.jooq.Field;
import org.jooq.Table;

/**
 * The insert of a row that a publish writes just before its message, in the caller's transaction, and whose
 * generated id the message carries in a header: the outbox's record of a publish, say. A send that writes its
 * message into a table takes it through {@link OutgoingMessage#writeFirst}, and writes both rows in one
 * statement, so that tracking a publish costs no round trip of its own.
 *
 * <p>It is built once per table, and is the key of the statements a transport builds from it: two instances
 * are two keys, even on one table (equality is identity, so a publish looks its statement up without hashing
 * the columns). The values of each publish come beside it. This SPI may still change before 1.0.
 */
public final class LeadingInsert {
    private final Table<?> table;
    private final List<Field<?>> columns;
    private final Field<?> id;
    private final String idHeader;

    /**
     * The insert into {@code table} of {@code columns} (in the order of the values each publish gives), whose
     * id the database fills in column {@code id}; the message carries it in header {@code idHeader}.
     */
    public LeadingInsert(Table<?> table, List<Field<?>> columns, Field<?> id, String idHeader) {
        this.table = Objects.requireNonNull(table, "table");
        this.columns = List.copyOf(columns);
        this.id = Objects.requireNonNull(id, "id");
        this.idHeader = Objects.requireNonNull(idHeader, "idHeader");
    }

    /** The table the row goes into. */
    public Table<?> table() {
        return table;
    }

    /** The columns the insert writes, in the order of the values. */
    public List<Field<?>> columns() {
        return columns;
    }

    /** The column the database fills with the row's id. */
    public Field<?> id() {
        return id;
    }

    /** The header of the message that carries the id. */
    public String idHeader() {
        return idHeader;
    }

    @Override
    public String toString() {
        return "LeadingInsert[" + table.getName() + " " + columns.stream().map(Field::getName).toList() + ", id "
                + id.getName() + " in header " + idHeader + "]";
    }
}
