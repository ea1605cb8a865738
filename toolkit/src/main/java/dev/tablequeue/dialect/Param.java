package dev.tablequeue.dialect;


import java.util.List;
import java.util.Objects;
import org.jooq.Field;

/**
 * One {@code ?} of a built statement: what value goes there. The runtime binds a statement's params in
 * order from the values of one execution; time values are converted by the dialect for the column they compare with.
 *
 * @param kind what the value is
 * @param column the column the value is written to or compared with, where that decides its JDBC type
 * @param index the position in a list (the n-th id of an IN list, the n-th insert column), else 0
 * @param constant the value itself, for {@link Kind#CONSTANT}; the params of each row, for {@link Kind#ROWS}
 */
public record Param(Kind kind, Field<?> column, int index, Object constant) {

    /** What a {@link Param} stands for. */
    public enum Kind {
        /** The delivery's id (or the {@code index}-th id of a list). */
        ID,
        /** The subscription's group. */
        GROUP,
        /** "Now" from the host clock, in {@code column}'s type. */
        NOW,
        /** The time a delayed retry comes due, in {@code column}'s type. */
        RETRY_AT,
        /** A delay added to the database's clock, in the dialect's unit. */
        DELAY,
        /** How many rows a claim may take. */
        LIMIT,
        /** The lease expiry a claim or extension writes. */
        LEASE_UNTIL,
        /** The lease expiry the delivery holds: its ownership token. */
        LEASE_HELD,
        /** A dead letter's destination group. */
        DESTINATION,
        /** An advisory lock key, or a key a guard locks. */
        KEY,
        /**
         * The advisory keys the subscription's other deliveries in work hold, as an array of text: a walk passes
         * over their rows without trying their keys, which it could not lock.
         */
        HELD_KEYS,
        /** Why the row failed ({@code column} is the last-error column); null where the outcome had no failure. */
        LAST_ERROR,
        /** The {@code index}-th value of an insert, for {@code column}. */
        VALUE,
        /** A value fixed when the statement was built (a literal part of a key, a channel name). */
        CONSTANT,
        /**
         * The values of every row a statement over many rows writes, bound as data: the values of the
         * {@link #perRow} params of each row, as the dialect encodes them ({@link dev.tablequeue.internal.Binds#rowsEncoding}); an
         * array of one param's values on PostgreSQL, a JSON array of rows on MySQL, MariaDB and SQLite.
         */
        ROWS
    }

    public Param {
        Objects.requireNonNull(kind, "kind");
    }

    public static Param of(Kind kind) {
        return new Param(kind, null, 0, null);
    }

    public static Param of(Kind kind, Field<?> column) {
        return new Param(kind, column, 0, null);
    }

    public static Param at(Kind kind, Field<?> column, int index) {
        return new Param(kind, column, index, null);
    }

    /** The rows' values of {@code perRow}, in that order, as one bound value ({@link Kind#ROWS}). */
    public static Param rows(List<Param> perRow) {
        return new Param(Kind.ROWS, null, 0, List.copyOf(perRow));
    }

    /** The params whose values a {@link Kind#ROWS} param carries per row, in order. */
    @SuppressWarnings("unchecked")
    public List<Param> perRow() {
        if (kind != Kind.ROWS) {
            throw new IllegalStateException("not the rows of a statement over many rows: " + kind);
        }
        return (List<Param>) constant;
    }

    public static Param constant(Object value) {
        return new Param(Kind.CONSTANT, null, 0, value);
    }
}
