package dev.tablequeue.broker;

import java.util.Map;
import java.util.OptionalInt;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;

/** One claimed row in a handler's hands: what the handler reads off it beside the message. */
public interface Delivery {

    /** The row's id, in the Java type of the binding's id column; {@link #id(Field)} gives it typed. */
    Object id();

    /**
     * The row's id in the type of {@code idColumn}, the binding's id column as jOOQ's generated class holds
     * it: {@code Long jobId = delivery.id(EMAIL_JOBS.JOB_ID)}.
     *
     * <p>A delivery of a queue table checks that {@code idColumn} is its table's id column; a delivery of
     * another transport (the outbox's in-memory broker or RabbitMQ) converts its id to the column's type.
     *
     * @throws IllegalArgumentException if {@code idColumn} is not the id column of the delivery's table
     */
    default <V> V id(Field<V> idColumn) {
        // a bind value of the column's type converts as jOOQ converts a value for it (DataType.convert(Object) is
        // marked for removal in 3.21; this way compiles without a warning on 3.19 and 3.21 alike)
        return DSL.val(id(), idColumn.getDataType()).getValue();
    }

    /** The queue (the subscription's name) the row was claimed from. */
    String queue();

    /**
     * The table the row was claimed from, as messages name it (with its schema where it has one); empty
     * where a delivery comes from no table.
     */
    default String table() {
        return "";
    }

    /**
     * The attempt as it stood before this claim: the first delivery reads 1. Empty where the table has no
     * attempt column (or its value did not decode).
     */
    OptionalInt attempt();

    /** The delivery's headers: from the headers column or header fields; empty where the table has neither. */
    Map<String, String> headers();

    /** The partition key, or null where the table has none. */
    Object partitionKey();

    /**
     * A jOOQ context on the broker's pool: each statement commits on its own, whatever the delivery's outcome.
     */
    DSLContext db();

    /**
     * A jOOQ context on the delivery's own transaction, where its subscription is mounted with
     * {@link Mount#transactional()}: an acknowledgement commits what the handler wrote through it together
     * with the row's settlement; every other outcome, a thrown exception and a row that does not decode roll
     * it back first. It serves the handler while it runs: a statement after the handler returned fails with
     * {@link dev.tablequeue.TransactionHeldException}.
     *
     * @throws IllegalStateException where the subscription is not transactional, or the delivery comes from
     *     no table
     */
    default DSLContext tx() {
        throw new IllegalStateException("delivery.tx() is the transaction of a delivery of a queue table whose"
                + " subscription is mounted with transactional(); " + this + " has none");
    }

    /**
     * Whether the statements of a handler middleware that implements {@link dev.tablequeue.transport.SettlementJoin}
     * run in the transaction this delivery's settlement commits in: true for a delivery of a queue table in the
     * row lock or the lease form (transactional or not); false in the advisory form and for a delivery of
     * another transport, where a middleware writes on a connection of its own.
     */
    default boolean joinsSettlement() {
        return false;
    }
}
