package dev.tablequeue.dialect;

import dev.tablequeue.internal.Binds;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a delivery's outcome writes to its row, as operations on one table: built once for a binding and the
 * dead letters its subscription declares ({@link QueueDialect#settlements}), then run with a connection and the
 * outcomes. How many rows one statement writes (one, or any number bound as data) is the database's; the caller
 * gives outcomes and learns which rows changed.
 *
 * <p>Each operation runs on the connection as it is: in the caller's open transaction, or in auto-commit.
 */
public interface QueueSettlements {

    /** What an outcome does to its row. */
    enum Kind {
        /** Marks the row processed, or deletes it. */
        ACK,
        /** As an acknowledgement, with the failure's last error where the table keeps one. */
        DROP,
        /** Returns the row for another attempt now. */
        RETRY,
        /** Returns the row for another attempt once its retry time comes. */
        RETRY_AFTER,
        /** Moves the row into another group, keeping its attempt. */
        DEAD_LETTER_TO_GROUP,
        /** Copies the row into the dead-letter table, then deletes it: two statements, in one transaction. */
        DEAD_LETTER_TO_TABLE
    }

    /**
     * One row's outcome: its kind, and what its statements bind (the row's id, the lease it holds, its times, the
     * destination group, the last error).
     */
    record Outcome(Kind kind, Binds binds) {}

    /**
     * The statements that write {@code kind} to one row, in the order they run: none where the form returns the
     * row without a write (a retry under a row lock, whose rollback returns it, or an advisory retry with no last
     * error to keep), two for a dead letter into a table.
     *
     * @throws dev.tablequeue.DialectException naming the table, for a kind the binding cannot write (a delayed
     *     retry with no retryAfter column) or its subscription did not declare (a dead letter it has no
     *     destination for)
     */
    List<Statement> statements(Kind kind);

    /** The kinds these settlements write, in {@link Kind}'s order: those {@link #statements(Kind)} does not refuse. */
    java.util.Set<Kind> kinds();

    /** Every statement these settlements run, each once, in the order a subscription prepares them when it opens. */
    List<Statement> statements();

    /**
     * Writes one outcome: its statements in turn. Returns the statement that changed no row, where one did; the
     * statements after it are not run (with a lease token, the lease was lost and nothing was changed).
     */
    Optional<Statement> write(Connection c, Outcome outcome) throws Failure;

    /**
     * Writes {@code outcomes} on {@code c}, stage by stage (a dead letter into a table copies every row before it
     * deletes any). Outcomes of one kind that bind the same values but those each row has of its own (its id, its
     * times, its lease token, its last error) are one statement over all their rows, bound as data, where the
     * database writes so; the rest go as each statement once per row, in one JDBC batch.
     *
     * @param token whether the statements check a lease token, so that a row changed by none means a lost lease
     * @return with {@code token}, the outcomes (by index) whose statement changed no row, and that statement; they
     *     changed nothing, and their later stages were not run; empty without {@code token}
     * @throws Failure where a statement failed, or (with {@code token}) where a statement over many rows changed
     *     fewer than it had ({@link Failure#shortfall()}): the caller rolls back, and may write each outcome on
     *     its own, which tells which leases were lost
     */
    Map<Integer, Statement> writeAll(Connection c, List<Outcome> outcomes, boolean token) throws Failure;

    /** A settlement statement that failed, and the outcomes it wrote. */
    final class Failure extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient Statement statement;
        private final transient List<Integer> wrote;
        private final transient List<Integer> culprits;
        private final boolean shortfall;

        Failure(Statement statement, List<Integer> wrote, List<Integer> culprits, Throwable cause) {
            super(cause);
            this.statement = statement;
            this.wrote = List.copyOf(wrote);
            this.culprits = List.copyOf(culprits);
            this.shortfall = false;
        }

        Failure(Statement statement, List<Integer> wrote, int changed) {
            super("the " + statement.purpose() + " of " + wrote.size() + " rows changed " + changed
                    + ": some leases were lost");
            this.statement = statement;
            this.wrote = List.copyOf(wrote);
            this.culprits = List.of();
            this.shortfall = true;
        }

        /** The statement that failed. */
        public Statement statement() {
            return statement;
        }

        /** The outcomes (by index) the failed statement was writing. */
        public List<Integer> wrote() {
            return wrote;
        }

        /**
         * The outcomes (by index) whose row made the statement fail: one, where a JDBC batch's driver names the
         * row it failed at; all it wrote, where it wrote one or all rows in one execution; none where the driver
         * does not tell.
         */
        public List<Integer> culprits() {
            return culprits;
        }

        /**
         * Whether a statement over many rows with a lease token changed fewer rows than it had: some leases were
         * lost, and the statement cannot tell which. The cause is then null.
         */
        public boolean shortfall() {
            return shortfall;
        }
    }
}
