package dev.tablequeue.broker;

import dev.tablequeue.DeclarationException;
import dev.tablequeue.DialectException;
import dev.tablequeue.SchemaException;
import dev.tablequeue.TableQueueException;
import dev.tablequeue.binding.Event;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.BindingStatements;
import dev.tablequeue.dialect.ClaimShape;
import dev.tablequeue.dialect.KeyLocks;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.QueueInserts;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.dialect.SubscriptionStatements;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import java.util.function.Consumer;
import org.jooq.Table;

/**
 * The rules a binding and its table must keep for a subscription to open, in one place: the binding's own
 * declarations, the dialect's acceptance, every statement the subscription and a publish run preparing on the
 * server, and the attempt column's default. {@link QueueBroker#start()} runs them for each subscription and
 * stops at the first refusal; the build-time check ({@code tablequeue:check}) runs the same rules on a migrated
 * scratch database and reports every refusal. Rules on a subscription's own settings ({@code maxAttempts},
 * {@code workersByKey}, {@code transactional()}, {@code listenNotify()}) stay in the broker: the check never
 * sees them.
 */
public final class StartRules {
    private StartRules() {}

    /**
     * One refusal: the exception {@code start()} raises for it, and, where a statement does not prepare, that
     * statement and the server's error.
     */
    public record Refusal(TableQueueException exception, Statement statement, SQLException cause) {
        Refusal(TableQueueException exception) {
            this(exception, null, null);
        }
    }

    /** The refusals of {@code start()}: the first one is thrown. */
    static final Consumer<Refusal> THROW = r -> {
        throw r.exception();
    };

    /**
     * What a subscription's settings change in the statements it prepares: how a claim reads the rows
     * ({@link ClaimShape}), whether it moves dead letters into a group, into which dead-letter table (null:
     * none), and whether it claims in key order ({@code workersByKey(n)}).
     */
    public record Variant(ClaimShape shape, boolean deadLetterToGroup, Table<?> deadLetterTable, boolean inKeyOrder) {
        /** The variant that covers every statement a subscription of {@code binding} may prepare (but key order). */
        public static Variant widest(RoleBinding<?> binding, Table<?> deadLetterTable) {
            return new Variant(binding.payloadMode() ? ClaimShape.ROLES : ClaimShape.ROWS,
                    binding.has(dev.tablequeue.binding.Role.GROUP), deadLetterTable, false);
        }
    }

    /**
     * The statements a subscription prepares, how many statements were prepared (many-row forms too), and, for
     * an advisory table, the key locks its claim takes (empty in the other forms, or where they were refused).
     */
    public record Opened(SubscriptionStatements statements, int prepared, Optional<KeyLocks> locks) {}

    /**
     * Applies every rule to a subscription of {@code binding} on {@code connection}, giving each refusal to
     * {@code refusals} ({@code user} names the queue or binding in their messages); returns the statements
     * built, or empty where the binding was refused before they could be (the dialect does not serve it).
     */
    public static Optional<Opened> subscription(QueueDialect dialect, Connection connection,
            RoleBinding<?> binding, Variant variant, String user, Consumer<? super Refusal> refusals) {
        try {
            declarations(binding, user);
        } catch (DeclarationException e) {
            refusals.accept(new Refusal(e));
        }
        SubscriptionStatements statements;
        try {
            dialect.validate(binding);
            statements = SubscriptionStatements.build(dialect, binding, variant.shape(), variant.deadLetterToGroup(),
                    variant.deadLetterTable(), variant.inKeyOrder());
        } catch (TableQueueException e) {
            refusals.accept(new Refusal(e));
            return Optional.empty();
        }
        int[] prepared = {0};
        for (Statement statement : statements.all()) {
            prepared[0] += prepare(dialect, connection, statement, binding.tableName(), user, refusals);
        }
        KeyLocks locks = null;
        if (binding.form() == Form.ADVISORY) {
            // the advisory claim's key locks, where the database's sessions hold them
            try {
                locks = dialect.keyLocks(binding, connection);
                for (Statement statement : locks.statements()) {
                    prepared[0] += prepare(dialect, connection, statement, binding.tableName(), user, refusals);
                }
            } catch (SQLException e) {
                refusals.accept(new Refusal(new SchemaException(user + ": the advisory locks of table \""
                        + binding.tableName() + "\" cannot be kept on this database: " + e.getMessage(), e), null, e));
            }
        }
        try {
            AttemptDefault.check(connection, binding, user);
        } catch (SchemaException e) {
            refusals.accept(new Refusal(e));
        } catch (SQLException e) {
            refusals.accept(new Refusal(new SchemaException(user + ": the default of the attempt column of table \""
                    + binding.tableName() + "\" cannot be read: " + e.getMessage(), e), null, e));
        }
        return Optional.of(new Opened(statements, prepared[0], Optional.ofNullable(locks)));
    }

    /**
     * Prepares {@code inserts}, what a publish into {@code binding}'s table runs, for {@code user}, and checks that
     * a unique index keeps the table's unique key where it has one, giving a refusal where a statement does not
     * prepare or no index keeps the key; returns how many statements prepared.
     */
    public static int insert(QueueDialect dialect, Connection connection, RoleBinding<?> binding,
            QueueInserts inserts, String user, Consumer<? super Refusal> refusals) {
        String writes = user + " (the insert writes " + binding.insertColumns().stream().map(f -> f.getName()).toList()
                + ")";
        int prepared = prepare(dialect, connection, inserts.insert(), binding.tableName(), writes, refusals);
        if (binding.has(Role.UNIQUE_KEY)) {
            prepared += unique(dialect, connection, binding, inserts, writes, refusals);
        }
        return prepared;
    }

    /**
     * The rules of a table with a unique key: a unique index keeps the key as the binding declares it, and the
     * unique publish's statements (those of {@code inserts} but its plain insert) prepare; returns how many
     * prepared.
     */
    private static int unique(QueueDialect dialect, Connection connection, RoleBinding<?> binding,
            QueueInserts inserts, String user, Consumer<? super Refusal> refusals) {
        try {
            // before the unique publish's statements, which name the index the key needs
            Optional<String> problem = inserts.indexProblem(connection);
            if (problem.isPresent()) {
                refusals.accept(new Refusal(new SchemaException(user + ": " + problem.get())));
                return 0;
            }
        } catch (SQLException e) {
            refusals.accept(new Refusal(new SchemaException(user + ": the unique indexes of table \""
                    + binding.tableName() + "\" cannot be read: " + e.getMessage(), e), null, e));
            return 0;
        }
        int prepared = 0;
        for (Statement statement : inserts.statements()) {
            if (statement != inserts.insert()) {
                prepared += prepare(dialect, connection, statement, binding.tableName(), user, refusals);
            }
        }
        return prepared;
    }

    /**
     * The rules a recurring job's table keeps for the schedule to start: a unique key over every row in a text
     * column long enough for its keys, kept by a unique index, on a table that keeps its processed rows; returns
     * whether they hold.
     */
    public static boolean schedule(QueueDialect dialect, Connection connection, RecurringJob job,
            Consumer<? super Refusal> refusals) {
        try {
            new ScheduledJob(job).checkBinding();
        } catch (DeclarationException e) {
            refusals.accept(new Refusal(e));
            return false;
        }
        RoleBinding<?> binding = job.queue().binding();
        QueueInserts inserts;
        try {
            inserts = BindingStatements.inserts(dialect, binding);
        } catch (DialectException e) {
            refusals.accept(new Refusal(e));
            return false;
        }
        boolean[] refused = {false};
        unique(dialect, connection, binding, inserts, job.toString(), r -> {
            refused[0] = true;
            refusals.accept(r);
        });
        return !refused[0];
    }

    /** The rules on the binding alone that its build leaves to the start. */
    private static void declarations(RoleBinding<?> binding, String user) {
        if (binding.owns(Event.FETCH) && !binding.owns(Event.CLAIM) && binding.form() != Form.ADVISORY) {
            throw new DeclarationException(user + ": an own fetch reads the ids an own claim returns: table \""
                    + binding.tableName() + "\" declares ownFetch(..) without ownClaim(..)");
        }
    }

    private static int prepare(QueueDialect dialect, Connection connection, Statement statement, String table,
            String user, Consumer<? super Refusal> refusals) {
        try {
            dialect.prepare(connection, statement);
            return 1;
        } catch (SQLException e) {
            refusals.accept(new Refusal(new SchemaException(user + ": the " + statement.purpose() + " statement of"
                    + " table \"" + table + "\" does not prepare on " + dialect.name() + ": " + e.getMessage()
                    + " [SQL: " + statement.sql() + "]", e), statement, e));
            return 0;
        }
    }
}
