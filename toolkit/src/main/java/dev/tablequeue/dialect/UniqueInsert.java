package dev.tablequeue.dialect;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * How a database publishes into a table with a unique key ({@code uniqueKey(..)}, {@code uniqueKeyWhilePending(..)}),
 * built for one binding: the insert that writes nothing where a row holds the row's key, and the read of that
 * row's id. It runs in the caller's transaction and never silences a conflict on another unique constraint (a
 * primary key the message gives): that fails as an ordinary insert fails.
 */
interface UniqueInsert {

    /** Every statement {@link #insert} may run, for the start and the build-time check to prepare. */
    List<Statement> statements();

    /**
     * Writes one row with {@code values} (the binding's insert values, in order; its key is not null) unless a row
     * holds its key, and says which (the id as the driver returns it).
     *
     * @throws SQLException where the insert fails, or where it conflicts on a unique constraint other than the key
     */
    QueueInserts.Written insert(Connection c, List<Object> values) throws SQLException;

    /**
     * Why the table's unique indexes do not keep the key as the binding declares it (unique over every row, or
     * over its pending rows), in words that name the table and the column; empty where one does.
     */
    Optional<String> indexProblem(Connection c) throws SQLException;
}
