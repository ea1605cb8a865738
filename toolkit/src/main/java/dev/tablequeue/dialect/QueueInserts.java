package dev.tablequeue.dialect;

import dev.tablequeue.transport.LeadingInsert;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * A publish's insert into one table, as an operation: rows in, what became of each out. How the database gives
 * back an id it generated (the driver's generated keys of a batch, or {@code RETURNING} once per row where the
 * driver reports no keys for a batch), and how it leaves out a row whose unique key a row holds already
 * ({@code uniqueKey(..)}, {@code uniqueKeyWhilePending(..)}), are its dialect's, decided when the operation is
 * built ({@link QueueDialect#inserts}).
 *
 * <p>This SPI may still change before 1.0.
 */
public interface QueueInserts {

    /**
     * What became of one row.
     *
     * @param inserted whether the row was written: false only where the table has a unique key and a row holds the
     *     row's key already
     * @param id the written row's id, in the Java type of the binding's id column; where the row was not written,
     *     the id of the row that holds its key, read in the same transaction. Null where the database fills the id
     *     column and the binding does not say so: then no id can be read.
     */
    record Written(boolean inserted, Object id) {}

    /** The insert: the binding's insert columns, bound as {@link Param.Kind#VALUE}s, in their order. */
    Statement insert();

    /** Every statement {@link #write} may run, the insert first, for a start or the build-time check to prepare. */
    List<Statement> statements();

    /**
     * Writes one row per element of {@code values} (the insert's values, in order) on {@code c}, in the
     * transaction it has open or in auto-commit, and returns what became of each, in order: the value a row gave
     * where the insert writes the id, else the one the database generated. Where the table has a unique key, a
     * row whose key a row holds already is not written (a row without a key, NULL, always is), and rows are
     * written in order, so where two of them carry one key, the second reports the first's row. A conflict on any
     * other unique constraint (a primary key the row gives) fails the write.
     */
    List<Written> write(Connection c, List<List<Object>> values) throws SQLException;

    /**
     * Why the table's unique indexes do not keep its unique key as the binding declares it (unique over every
     * row, or over its pending rows), in words that name the table and the column; empty where one does, or where
     * the table has no unique key. A table without the index would take every duplicate on some databases.
     */
    Optional<String> indexProblem(Connection c) throws SQLException;

    /**
     * The insert with a leading row ({@link LeadingInsert}), as an operation: one statement that writes the
     * leading row, then the message's row with the leading row's id in the header the insert names (in the
     * headers column, or in that header's own column). Empty where the database cannot write two tables in one
     * statement, where the binding keeps no such header, or where the table has a unique key (a leading row
     * would be written for a message whose key may be taken): the publish then declines the leading row, and its
     * caller writes it.
     */
    Optional<Leading> leading(LeadingInsert leading);

    /** The insert of a message's row with a leading row, in one statement ({@link #leading}). */
    interface Leading {

        /** The statement: binds the binding's insert values, then the leading row's. */
        Statement statement();

        /**
         * Writes the leading row with {@code leadingValues} (in the order of its columns) and the message's row
         * with {@code values} (the insert's values) on {@code c}: both or, where it fails, neither.
         *
         * @return the leading row's id, as text, and the message row's id where the statement returns it
         * @throws SQLException where the statement fails or returns no leading id
         */
        Ids write(Connection c, List<Object> values, List<?> leadingValues) throws SQLException;
    }

    /** The ids {@link Leading#write} returns: the leading row's, and the message row's (null where not returned). */
    record Ids(String leadingId, Object messageId) {}
}
