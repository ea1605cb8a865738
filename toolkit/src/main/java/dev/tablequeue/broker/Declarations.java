package dev.tablequeue.broker;

import dev.tablequeue.DeclarationException;
import dev.tablequeue.binding.Event;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.QueueDialect;

/**
 * The rules a subscription's settings must keep with its table, checked when the broker starts: each
 * refusal is a {@link DeclarationException} that names the queue and what is missing. The rules on the table
 * and binding alone are {@link StartRules}, which the build-time check runs too.
 */
final class Declarations {
    private Declarations() {}

    static void check(Mount<?> mount, RoleBinding<?> binding, boolean listenNotify, String channel,
            QueueDialect dialect) {
        InboxQueue<?> queue = mount.queue;
        String where = "queue " + queue + ": ";
        if (mount.rows && binding.payloadMode()) {
            throw new DeclarationException(where + "rows() takes the rows of a row-mode table, and table \""
                    + binding.tableName() + "\" is in payload mode (it has a payload column): use payload(..)");
        }
        if (!mount.rows && !binding.payloadMode()) {
            throw new DeclarationException(where + "payload(..) decodes a payload column, and table \""
                    + binding.tableName() + "\" has none (row mode): use rows()");
        }
        boolean deadLetter = mount.deadLetterGroup != null || mount.deadLetterTable != null;
        if (mount.byName != null && (deadLetter || mount.maxAttempts > 0)) {
            throw new DeclarationException(where + "a subscription by name (\"" + mount.byName + "\", routed to table \""
                    + binding.tableName() + "\") takes no " + (mount.maxAttempts > 0 ? "maxAttempts(" + mount.maxAttempts
                    + ")" : "dead letter") + ": a cap and its dead letter belong to a queue named by its binding;"
                    + " subscribe to InboxQueue.of(binding, \"" + mount.byName + "\") for them");
        }
        if (mount.deadLetterGroup != null && mount.deadLetterTable != null) {
            throw new DeclarationException(where + "deadLetter(..) and deadLetterTable(..) are both declared: one"
                    + " destination per subscription");
        }
        if (mount.maxAttempts > 0 && !deadLetter) {
            throw new DeclarationException(where + "maxAttempts(" + mount.maxAttempts + ") needs a destination:"
                    + " declare deadLetter(group) or deadLetterTable(table)");
        }
        if (deadLetter && mount.maxAttempts == 0) {
            throw new DeclarationException(where + "a dead letter is declared without maxAttempts(n)");
        }
        if (mount.maxAttempts > 0 && !binding.has(Role.ATTEMPT)) {
            throw new DeclarationException(where + "maxAttempts(" + mount.maxAttempts + ") counts deliveries in an"
                    + " attempt column, and table \"" + binding.tableName() + "\" has none");
        }
        if (mount.deadLetterGroup != null && !binding.has(Role.GROUP)) {
            throw new DeclarationException(where + "deadLetter(\"" + mount.deadLetterGroup + "\") moves rows to a"
                    + " group, and table \"" + binding.tableName() + "\" has no group column: use deadLetterTable(..)");
        }
        if (mount.lease != null && binding.form() != Form.LEASE) {
            throw new DeclarationException(where + "lease(..) is set on a table in the "
                    + binding.form().name().toLowerCase().replace('_', ' ') + " form, which holds no lease");
        }
        if (mount.byKey) {
            checkByKey(where, binding);
        }
        if (mount.transactional && mount.batch > 0) {
            throw new DeclarationException(where + "transactional() serves single deliveries, and batch("
                    + mount.batch + ") hands the handler a list: a delivery's own transaction cannot span a batch;"
                    + " mount one or the other");
        }
        if (mount.transactional) {
            dialect.refuseTransactional(binding).ifPresent(reason -> {
                throw new DeclarationException(where + reason);
            });
        }
        if (listenNotify) {
            dialect.notifications().refuse(channel).ifPresent(reason -> {
                throw new DeclarationException(where + reason);
            });
        }
    }

    /** The rules of {@code workersByKey(n)}: a partition key, and a claim that can keep the keys' order. */
    private static void checkByKey(String where, RoleBinding<?> binding) {
        if (!binding.has(Role.PARTITION_KEY)) {
            throw new DeclarationException(where + "workersByKey(n) runs the rows of each partition key in order, and"
                    + " table \"" + binding.tableName() + "\" has no partition key column: declare partitionKey(..)"
                    + " in its binding, or use workers(n)");
        }
        if (binding.fifo()) {
            throw new DeclarationException(where + "workersByKey(n) is declared on table \"" + binding.tableName()
                    + "\", whose FIFO group already runs one row of the group at a time: use workers(n)");
        }
        if (binding.owns(Event.CLAIM)) {
            throw new DeclarationException(where + "workersByKey(n) needs the dialect's claim, which takes only the"
                    + " first unfinished row of each key, and table \"" + binding.tableName()
                    + "\" declares ownClaim(..)");
        }
    }

    /**
     * The rules of {@code listenNotify()} on a broker of {@code dialect} with a pool of {@code size}: a
     * database with notifications, and a connection for the listener beside those the claims and handlers need.
     */
    static void checkListener(boolean listenNotify, QueueDialect dialect, int size) {
        if (listenNotify) {
            dialect.notifications().refuseListener().ifPresent(reason -> {
                throw new DeclarationException(reason);
            });
        }
        if (listenNotify && size < 3) {
            // the listener holds one connection for good and one stays free: claims need a third
            throw new DeclarationException("listenNotify() keeps one connection of the pool"
                    + " for the listener and one stays free for handlers and publishes, so a pool of " + size
                    + " leaves the claims none and they would wait forever: use a pool (or poolSize(n)) of at"
                    + " least 3");
        }
    }
}
