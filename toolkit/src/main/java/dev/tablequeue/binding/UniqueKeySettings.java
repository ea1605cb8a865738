package dev.tablequeue.binding;

import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;

/**
 * The settings of a binding that name its unique key ({@link Role#UNIQUE_KEY}); {@link RoleBinding.Builder} takes
 * them with the rest. A publish whose key a row already holds writes no row and says so in its result.
 */
abstract class UniqueKeySettings<R extends Record> extends OwnSettings<R> {

    UniqueKeySettings(Table<R> table, Field<?> id) {
        super(table, id);
    }

    /**
     * The unique key: a column that a unique index on it alone keeps unique over every row of the table (on
     * PostgreSQL and SQLite an index without a {@code WHERE}). A publish that sets a key some row holds writes
     * nothing and returns {@code inserted() == false} with that row's id; a publish that sets no key (NULL)
     * is an ordinary insert. On a table that keeps its acknowledged rows ({@code processedAt(..)}), a key is
     * then taken for good; {@link #uniqueKeyWhilePending} frees it at the acknowledgement.
     */
    public RoleBinding.Builder<R> uniqueKey(Field<?> column) {
        return role(Role.UNIQUE_KEY, column);
    }

    /**
     * The unique key, held only by pending rows (those whose processed-at column is NULL): a key is free again
     * once its row is acknowledged. The index the service migrates keeps it so: on PostgreSQL and SQLite a
     * partial unique index {@code ON t (k) WHERE processed_at IS NULL} (that predicate, on the binding's
     * processed-at column), on MySQL and MariaDB a unique index on a generated column
     * {@code IF(processed_at IS NULL, k, NULL)}. Needs {@code processedAt(..)}: without it an acknowledged row
     * is deleted, and {@link #uniqueKey} frees the key already.
     */
    public RoleBinding.Builder<R> uniqueKeyWhilePending(Field<?> column) {
        uniqueWhilePending = true;
        return role(Role.UNIQUE_KEY, column);
    }
}
