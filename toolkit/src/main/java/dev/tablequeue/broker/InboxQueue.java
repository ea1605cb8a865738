package dev.tablequeue.broker;

import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import java.util.Objects;
import org.jooq.Record;

/**
 * A queue in a table: the group {@code name} selects where the table has a group column, or the whole table
 * where it has none.
 *
 * @param binding the table's binding
 * @param name the group, or a name for the whole table
 * @param <R> the table's record type
 */
public record InboxQueue<R extends Record>(RoleBinding<R> binding, String name) {
    public InboxQueue {
        Objects.requireNonNull(binding, "binding");
        Objects.requireNonNull(name, "name");
    }

    public static <R extends Record> InboxQueue<R> of(RoleBinding<R> binding, String name) {
        return new InboxQueue<>(binding, name);
    }

    /** The group a claim selects, or null where the table is one queue. */
    public String group() {
        return binding.has(Role.GROUP) ? name : null;
    }

    @Override
    public String toString() {
        return binding.tableName() + "/" + name;
    }
}
