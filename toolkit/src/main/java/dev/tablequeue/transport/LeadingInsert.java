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
 * <p>It is built once per table (statements built from it are kept by it, as a key); the values of each
 * publish come beside it. This SPI may still change before 1.0.
 *
 * @param table the table the row goes into
 * @param columns the columns the insert writes, in the order of the values
 * @param id the column the database fills with the row's id
 * @param idHeader the header of the message that carries the id
 */
public record LeadingInsert(Table<?> table, List<Field<?>> columns, Field<?> id, String idHeader) {
    public LeadingInsert {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(idHeader, "idHeader");
        columns = List.copyOf(columns);
    }
}
