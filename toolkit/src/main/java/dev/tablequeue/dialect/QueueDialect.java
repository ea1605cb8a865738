package dev.tablequeue.dialect;

import dev.tablequeue.DialectException;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.Opening;
import dev.tablequeue.binding.RoleBinding;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jooq.Field;
import org.jooq.SQLDialect;
import org.jooq.Table;

/**
 * What a queue runs on one database: its claims as operations ({@link #claims}), and its other statements, one
 * method per statement, each building it from a binding. The runtime calls them once, when a subscription
 * opens, and then only binds and executes the result.
 *
 * <p>A dialect owns the final text of each statement: it builds with jOOQ where jOOQ renders what the server
 * runs, and writes the statement itself where jOOQ's rendering is wrong for the server (see the notes on
 * each built-in). A statement a dialect cannot build for a binding is refused with {@link DialectException}.
 *
 * <p>This SPI may still change before 1.0.
 */
public interface QueueDialect {

    /** A short name for messages: "postgres", "mysql", "mariadb", "sqlite". */
    String name();

    /** The jOOQ dialect statements are rendered for. */
    SQLDialect sqlDialect();

    /**
     * This dialect, rendering the names of bindings' tables and columns through {@code settings}, the jOOQ
     * settings of the service: its render mapping ({@link org.jooq.conf.Settings#getRenderMapping()}) and
     * whether it renders schemas ({@link org.jooq.conf.Settings#isRenderSchema()}), so that classes jOOQ
     * generated against one database's schema ({@code public.order_jobs} on PostgreSQL) serve another where
     * that schema is named otherwise, or not at all. Every other setting is the dialect's own. A built-in
     * dialect returns a copy and leaves this one as it was; the default returns this dialect, unchanged, for a
     * dialect that renders no names through jOOQ's settings.
     */
    default QueueDialect rendering(org.jooq.conf.Settings settings) {
        return this;
    }

    /** Whether tables of {@code form} can be served on this database. */
    boolean supportsForm(Form form);

    /**
     * Refuses a binding this database cannot serve (a form, a level, a name over the server's limit), with
     * a {@link DialectException} naming the table and the reason.
     */
    void validate(RoleBinding<?> binding);

    // ---- claims ----

    /**
     * The claim of {@code binding}'s table in the row lock or the lease form, its statements built now, in
     * {@code shape}; where {@code inKeyOrder}, over {@link RoleBinding#inKeyOrder()}, for
     * {@code workersByKey(n)}. Refused with {@link DialectException} where this database cannot serve the
     * binding's form; the advisory form claims by its keys ({@link #keys}).
     */
    QueueClaims claims(RoleBinding<?> binding, ClaimShape shape, boolean inKeyOrder);

    /**
     * The advisory claim of {@code binding}'s table ({@link QueueKeys}), its rows read in {@code shape}; where
     * {@code inKeyOrder}, its candidates and walk over {@link RoleBinding#inKeyOrder()}, for {@code
     * workersByKey(n)} (the take keeps the plain condition: a row that was the first of its key when the
     * candidates were read stays so until it is finished). Refused with {@link DialectException} where this
     * database cannot serve the advisory form or the binding is of another.
     */
    QueueKeys keys(RoleBinding<?> binding, ClaimShape shape, boolean inKeyOrder);


    /**
     * The advisory locks of {@code binding}'s keys on the database {@code connection} reaches ({@link KeyLocks}):
     * a session's, or the process's where the database's sessions hold none.
     */
    KeyLocks keyLocks(RoleBinding<?> binding, java.sql.Connection connection) throws java.sql.SQLException;

    /**
     * {@code outcome} (one of the binding's settlement statements) and the release of the row's key in one
     * statement: it binds what {@code outcome} binds, then the key, and returns one row of one boolean-like
     * column, whether the session held the key. The key must stay held until the outcome's transaction ends
     * (PostgreSQL hands it to the transaction): another session that locked it before the outcome commits
     * would read the row as not yet settled. Empty, the default, where the dialect offers none; the runtime
     * then runs {@code outcome}, commits, and releases the key ({@link KeyLocks#unlock}).
     */
    default Optional<Statement> advisorySettleAndUnlock(RoleBinding<?> binding, Statement outcome) {
        return Optional.empty();
    }

    /**
     * {@code outcome}, the release of its row's key as {@link #advisorySettleAndUnlock} releases it, and the
     * walk of {@link QueueKeys#walk} to the next row, all in one statement on the connection that held the
     * settled row: it binds what {@code outcome} binds, then the key, then the walk's group and clock, and the
     * settled row's id again, which the walk passes over (the statement's own outcome is not visible to it).
     * It returns the walk's row and flags, then {@code tq_unlocked}, whether the session held the settled
     * row's key. A key the walk locked stays held by the session, as after the walk alone; where the statement
     * fails, the session may hold it. Empty, the default, where the dialect offers none (or no walk); the
     * runtime then settles and claims apart.
     */
    default Optional<Statement> advisorySettleAndWalk(RoleBinding<?> binding, Statement outcome, ClaimShape shape) {
        return Optional.empty();
    }

    // ---- settlements ----

    /**
     * What outcomes write to {@code binding}'s rows, as operations ({@link QueueSettlements}), statements built now:
     * an acknowledgement, a drop, a retry, a delayed retry where the table has a retryAfter column, and the dead
     * letters the subscription declares: into another group ({@code toGroup}), or into {@code toTable}, a table
     * with the same columns (null for none).
     *
     * @throws DialectException naming the table, where a declared dead letter cannot be written (into a group,
     *     on a table with no group column)
     */
    QueueSettlements settlements(RoleBinding<?> binding, boolean toGroup, Table<?> toTable);

    // ---- transactions, inserts, notifications ----

    /** How to open the transactions of a delivery's work at the binding's level or mode. */
    TransactionOpening transactionOpening(RoleBinding<?> binding);

    /**
     * The publish's insert into {@code binding}'s table, as an operation: rows in, what became of each out, however
     * the database gives back an id it generated or leaves out a row whose unique key is taken.
     *
     * @throws DialectException where the table has a unique key and the database cannot publish into one
     */
    QueueInserts inserts(RoleBinding<?> binding);

    /** The database's notifications of new rows (LISTEN/NOTIFY); the default: none, a listener refused. */
    default QueueNotifications notifications() {
        return QueueNotifications.none(name());
    }

    /** The database's "now", as the statements of a binding on the database clock read it. */
    Field<?> databaseNow();

    // ---- values ----

    /** The JDBC value of {@code instant} for a statement that compares it with or writes it to {@code column}. */
    Object timeValue(Field<?> column, Instant instant);

    /**
     * Reads a time a statement returns: a value of {@code column} (a time column of the binding), or the
     * database's "now" where {@code column} is {@link #databaseNow()}; null for SQL NULL. The inverse of
     * {@link #timeValue}: the default reads an {@code OffsetDateTime}, or a {@code LocalDateTime} as UTC where
     * the column's Java type is {@code LocalDateTime}, so the result does not depend on the JVM's time zone.
     */
    default Instant readTime(java.sql.ResultSet rs, int index, Field<?> column) throws java.sql.SQLException {
        if (column != null && column.getType() == java.time.LocalDateTime.class) {
            java.time.LocalDateTime time = rs.getObject(index, java.time.LocalDateTime.class);
            return time == null ? null : time.toInstant(java.time.ZoneOffset.UTC);
        }
        java.time.OffsetDateTime time = rs.getObject(index, java.time.OffsetDateTime.class);
        return time == null ? null : time.toInstant();
    }

    /** The JDBC value of a delay added to the database's clock. */
    Object delayValue(Duration delay);

    /** Whether claims of one subscription may run side by side (false on SQLite, one writer at a time). */
    boolean claimsInParallel();

    /**
     * How the runtime prepares this dialect's statements: {@link StatementCache#EACH_USE}, the default, where the
     * driver keeps what it parses or preparing costs little; a cache of the dialect's own where the driver
     * compiles each statement it prepares (SQLite's, {@link StatementCache#keptPerConnection()}).
     */
    default StatementCache statementCache() {
        return StatementCache.EACH_USE;
    }

    /**
     * Why this database cannot run {@code b}'s deliveries in transactional mode, where the handler writes
     * through the delivery's own transaction and the acknowledgement commits it; empty where it can. The
     * default refuses nothing.
     */
    default Optional<String> refuseTransactional(RoleBinding<?> b) {
        return Optional.empty();
    }

    /**
     * Prepares {@code statement} on the server without running it, so a table or column the database lacks
     * fails here. The default asks the driver for the statement's parameter metadata, which makes PostgreSQL,
     * MariaDB and SQLite parse it on the server.
     */
    default void prepare(java.sql.Connection connection, Statement statement) throws java.sql.SQLException {
        try (java.sql.PreparedStatement ps = connection.prepareStatement(statement.sql())) {
            ps.getParameterMetaData();
        }
    }

    /** Checks the binding's form is served, else refuses. */
    default void requireForm(RoleBinding<?> binding) {
        if (!supportsForm(binding.form())) {
            throw new DialectException(name(), binding.tableName(),
                    "the " + binding.form().name().toLowerCase().replace('_', ' ') + " form is not served here");
        }
    }

    /** Refuses an opening this database does not open. */
    default void requireOpening(RoleBinding<?> binding, List<? extends Opening> opens) {
        binding.opening().ifPresent(level -> {
            if (!opens.contains(level)) {
                throw new DialectException(name(), binding.tableName(), "cannot open transactions at " + level
                        + "; this database opens " + opens);
            }
        });
    }
}
