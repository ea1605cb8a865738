package dev.tablequeue.dialect;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * A publish's insert into one table, as an operation: rows in, their ids out. How the database gives back an id
 * it generated (the driver's generated keys of a batch, or {@code RETURNING} once per row where the driver
 * reports no keys for a batch) is its dialect's, decided when the operation is built
 * ({@link QueueDialect#inserts}).
 *
 * <p>This SPI may still change before 1.0.
 */
public interface QueueInserts {

    /** The insert: the binding's insert columns, bound as {@link Param.Kind#VALUE}s, in their order. */
    Statement insert();

    /** Every statement {@link #write} may run, the insert first, for a start or the build-time check to prepare. */
    List<Statement> statements();

    /**
     * Writes one row per element of {@code values} (the insert's values, in order) on {@code c}, in the
     * transaction it has open or in auto-commit, and returns each row's id in order, in the Java type of the
     * binding's id column: the value a row gave where the insert writes the id, else the one the database
     * generated. Null ids where the database fills the id column and the binding does not say so: then no id
     * can be read.
     */
    List<Object> write(Connection c, List<List<Object>> values) throws SQLException;
}
