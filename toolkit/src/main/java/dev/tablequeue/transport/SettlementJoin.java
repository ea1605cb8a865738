package dev.tablequeue.transport;

import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.Outcome;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * Statements of a handler middleware's own that join the transaction a queue table delivery's settlement
 * commits in, so that they commit exactly when the row's outcome does and roll back with it. A handler
 * middleware that implements it is called by the table broker's subscriptions for each delivery whose
 * {@link Delivery#joinsSettlement()} is true; a delivery of another transport, or of the advisory form (whose
 * outcome is one statement in auto-commit, often the key's release too), never calls it.
 *
 * <p>Both methods run on the broker's threads, with the transaction open on {@code c}; neither commits, rolls
 * back or closes it. This SPI may still change before 1.0.
 */
public interface SettlementJoin {

    /**
     * The rows one row lock claim took, on the claim's connection and in its open transaction (the one their
     * settlement commits), before any of their handlers runs; in transactional mode, before the savepoint the
     * handler's writes roll back to. What it writes commits with their settlement and rolls back with it (a
     * release at shutdown, a failed settlement, a crash). Where it throws, the claim rolls back: its rows return
     * to the queue as they were, and the claim counts as a failed one. Not called in the lease form, whose claim
     * commits at once.
     */
    default void claimed(Connection c, List<Delivery> deliveries) throws SQLException {}

    /**
     * The rows one lease claim took, on the claim's connection once the claim has committed (in auto-commit:
     * nothing run here joins a settlement), before any of their handlers runs: where a middleware reads
     * something for each delivery before its handler, it reads it here for the whole claim, on a connection
     * the claim holds already, instead of on one of its own per delivery. What it reads is as of the claim, and
     * a handler may run a while later. Where it throws, the failure is logged and the deliveries go to their
     * handlers all the same. Not called in the row lock form, whose claim calls {@link #claimed}.
     */
    default void leased(Connection c, List<Delivery> deliveries) throws SQLException {}

    /**
     * Deliveries whose outcomes are being written on {@code c}: after their own statements, before the commit
     * that writes them all. Where it throws, the settlement rolls back and each outcome fails as with a
     * statement of its own. A delivery's outcome is null where its row is written nothing (it returns as it
     * was: its handler failed with an {@link Error}); a lease delivery whose lease was lost is not among them.
     */
    void settling(Connection c, List<Settled> settled) throws SQLException;

    /**
     * The transaction {@link #settling} ran in for {@code deliveries} has ended, committed or rolled back (or their
     * settlement gave up), so what it wrote is now what every connection reads: a middleware that holds back
     * something of its own until then lets it go here. Runs on the broker's threads; a throw is logged.
     */
    default void ended(List<Delivery> deliveries) {}

    /** A delivery and the outcome its settlement writes (null: none, its row returns as it was). */
    record Settled(Delivery delivery, Outcome outcome) {}
}
