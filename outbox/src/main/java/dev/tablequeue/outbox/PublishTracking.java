package dev.tablequeue.outbox;

import dev.tablequeue.transport.OutgoingMessage;
import dev.tablequeue.transport.PublishMiddleware;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The outbox's publish middleware: a message under a registered name is written as a record first, and sent
 * with the record's id in {@link Outbox#ID_HEADER}.
 *
 * <ul>
 *   <li>Without the caller's transaction the record is written and committed on a connection of its own,
 *       then the message is sent; a failed send leaves the record to the republish.
 *   <li>With it, the record is written in it. A send that joins the transaction (a queue table's insert)
 *       follows at once, and commits with it; where the send can, it writes the record itself, in the
 *       statement of its own row ({@link OutgoingMessage#writeFirst}), so the record costs no round trip of
 *       its own (PostgreSQL; MariaDB and SQLite write the record, then the row). Any other send waits for the
 *       commit, which an
 *       {@link AfterCommit} frame reports (jOOQ's transactions through {@link Outbox#transactionListener()},
 *       others through {@link Outbox#afterCommit()}) or a {@link TransactionWatch} (a framework's transaction,
 *       Spring's); a rollback sends nothing. A connection in auto-commit has committed the record already, so
 *       its send follows at once. A transaction the outbox cannot see end is refused before anything is written.
 *   <li>Without it, inside a transaction a {@link TransactionWatch} sees open on the outbox's data source (a
 *       {@code @Transactional} method), the record is written in that transaction and the send follows its
 *       commit, as with the caller's transaction.
 *   <li>The publish says where the record went ({@link OutgoingMessage#recorded}) and whether the send follows
 *       the commit ({@link OutgoingMessage#sendsAfterCommit()}, a result's {@code deferred()}).
 *   <li>A record that cannot be written fails the publish: nothing is sent.
 * </ul>
 *
 * <p>Where the record is done on the broker's confirmation ({@link DoneWhen}), the message carries
 * {@link OutboxHeaders#DONE} and the record is marked processed once the send returned (a record sent again by the
 * republish too); where the mark fails, the record stays for the republish.
 *
 * <p>A name that is not registered passes after one map lookup, and a record sent again by the republish passes
 * as it is. Any other message of a registered name gets a record of its own, and an id header it already
 * carried (copied from a delivery's headers, or left by an earlier publish of the same message) is replaced.
 */
final class PublishTracking implements PublishMiddleware {
    private static final Logger LOG = LoggerFactory.getLogger(PublishTracking.class);
    /** The watches the class path installs, found once. */
    private static final List<TransactionWatch> WATCHES = ServiceLoader.load(TransactionWatch.class,
            TransactionWatch.class.getClassLoader()).stream().map(ServiceLoader.Provider::get).toList();
    private final Outbox outbox;
    private final DataSource dataSource;

    PublishTracking(Outbox outbox, DataSource dataSource) {
        this.outbox = outbox;
        this.dataSource = dataSource;
    }

    @Override
    public void publish(OutgoingMessage message, Send next) throws Exception {
        Registration r = outbox.registration(message.name());
        if (r == null) {
            next.send(message);
            return;
        }
        boolean confirmed = doneOnConfirmation(r, message);
        if (Republisher.isResending()) {
            // a record sent again carries its id already; on confirmation it is done now
            if (!confirmed) {
                next.send(message);
                return;
            }
            message.header(OutboxHeaders.DONE, OutboxHeaders.CONFIRMED);
            next.send(message);
            Object id = r.statements().parseId(message.headers().get(Outbox.ID_HEADER));
            if (id != null) {
                confirm(r, id, null);
            }
            return;
        }
        DSLContext tx = message.transaction();
        if (tx == null && !message.sendJoinsTransaction() && inWatchedTransaction(r, message, next, confirmed)) {
            return;
        }
        if (tx == null) {
            Object id;
            try (Connection c = dataSource.getConnection()) {
                id = insert(r, c, message);
            } catch (SQLException e) {
                throw notWritten(r, message, e);
            }
            message.header(Outbox.ID_HEADER, id.toString());
            message.recorded(r.binding().tableName(), r.binding().id().getDataType().convert(id));
            sendAndConfirm(r, message, next, id, confirmed, null);
            return;
        }
        if (message.sendJoinsTransaction() && message.writeFirst(r.statements().leading, values(r, message))) {
            if (confirmed) {
                message.header(OutboxHeaders.DONE, OutboxHeaders.CONFIRMED);
            }
            next.send(message);
            if (confirmed) {
                // the send joined the transaction: its commit is the confirmation, so the mark commits with it
                confirm(r, r.statements().parseId(message.headers().get(Outbox.ID_HEADER)), tx);
            }
            return;
        }
        AfterCommit frame = message.sendJoinsTransaction() ? null : AfterCommit.current();
        TransactionWatch[] watch = new TransactionWatch[1];
        Object id;
        try {
            id = tx.connectionResult(c -> {
                if (!message.sendJoinsTransaction() && frame == null && !c.getAutoCommit()) {
                    watch[0] = watching(c);
                    if (watch[0] == null) {
                        throw new OutboxException("the publish of " + message.name() + " was given a transaction"
                                + " the outbox cannot see commit, so it cannot send after the commit: run it in a"
                                + " jOOQ transaction of a configuration that carries Outbox.transactionListener(),"
                                + " or open Outbox.afterCommit() around it and call committed() after the commit,"
                                + " or, in Spring, add tablequeue-spring-boot-starter, whose TransactionWatch sees"
                                + " @Transactional's transactions");
                    }
                }
                return insert(r, c, message);
            });
        } catch (DataAccessException e) {
            throw notWritten(r, message, e.getCause() instanceof SQLException s ? s : e);
        }
        message.header(Outbox.ID_HEADER, id.toString());
        message.recorded(r.binding().tableName(), r.binding().id().getDataType().convert(id));
        if (frame != null) {
            message.sendsAfterCommit();
            frame.hold(() -> sendAndConfirm(r, message, next, id, confirmed, null));
        } else if (watch[0] != null) {
            message.sendsAfterCommit();
            watch[0].afterCommit(() -> sendAfterCommit(r, message, next, id, confirmed));
        } else {
            sendAndConfirm(r, message, next, id, confirmed, message.sendJoinsTransaction() ? tx : null);
        }
    }

    /**
     * Writes the record of a publish without the caller's context in the transaction a {@link TransactionWatch}
     * sees open on the outbox's data source, and holds the send back until its commit; false where none is open.
     */
    private boolean inWatchedTransaction(Registration r, OutgoingMessage message, Send next, boolean confirmed) {
        for (TransactionWatch watch : WATCHES) {
            Connection c = watch.connection(dataSource);
            if (c != null) {
                Object id;
                try {
                    id = insert(r, c, message);
                } catch (SQLException e) {
                    throw notWritten(r, message, e);
                }
                message.header(Outbox.ID_HEADER, id.toString());
                message.recorded(r.binding().tableName(), r.binding().id().getDataType().convert(id));
                message.sendsAfterCommit();
                watch.afterCommit(() -> sendAfterCommit(r, message, next, id, confirmed));
                return true;
            }
        }
        return false;
    }

    /** The watch that sees the transaction {@code c} runs end, or null. */
    private static TransactionWatch watching(Connection c) {
        for (TransactionWatch watch : WATCHES) {
            if (watch.watches(c)) {
                return watch;
            }
        }
        return null;
    }

    /** A send after the commit: the transaction is over, so a failure is logged and the record left to the republish. */
    private void sendAfterCommit(Registration r, OutgoingMessage message, Send next, Object id, boolean confirmed) {
        try {
            sendAndConfirm(r, message, next, id, confirmed, null);
        } catch (Exception e) {
            LOG.warn("the send of {} after its transaction's commit failed; the republish sends its record again: {}",
                    message.name(), e.toString());
        }
    }

    /**
     * Whether {@code message}'s record is done once its send returns: where the binding says so, or, where it
     * says nothing, where the transport's send returns on the broker's confirmation.
     */
    private static boolean doneOnConfirmation(Registration r, OutgoingMessage message) {
        return r.binding().doneWhen()
                .map(w -> w == DoneWhen.CONFIRMED)
                .orElse(message instanceof Envelope e && e.confirming());
    }

    private void sendAndConfirm(Registration r, OutgoingMessage message, Send next, Object id, boolean confirmed,
            DSLContext tx) throws Exception {
        if (confirmed) {
            message.header(OutboxHeaders.DONE, OutboxHeaders.CONFIRMED);
        }
        next.send(message);
        if (confirmed) {
            confirm(r, id, tx);
        }
    }

    /**
     * Marks record {@code id} done after its send returned: in {@code tx} where the send joined it, else on a
     * connection of its own. A mark that fails is logged: the record stays unprocessed and is sent again, so the
     * consumer sees the message twice (at least once), never not at all.
     */
    private void confirm(Registration r, Object id, DSLContext tx) {
        try {
            if (tx != null) {
                tx.connection(c -> mark(r, c, id));
                return;
            }
            try (Connection c = dataSource.getConnection()) {
                mark(r, c, id);
            }
        } catch (SQLException | RuntimeException e) {
            LOG.warn("the outbox record {} of \"{}\" ({}) was confirmed by the broker but its mark was not written;"
                    + " the republish sends it again: {} [SQL: {}]", id, r.binding().tableName(), r.name(),
                    e.toString(), r.statements().ack);
        }
    }

    private static void mark(Registration r, Connection c, Object id) throws SQLException {
        if (r.binding().owns(OutboxEvent.ACK)) {
            ((OwnRecords.Settle) r.binding().own(OutboxEvent.ACK))
                    .settle(org.jooq.impl.DSL.using(c, r.statements().dialect().sqlDialect()), id);
        } else {
            r.statements().ack(c, id);
        }
    }

    private Object insert(Registration r, Connection c, OutgoingMessage message) throws SQLException {
        return r.statements().insert(c, values(r, message));
    }

    /** The values of {@code message}'s record. */
    private List<Object> values(Registration r, OutgoingMessage message) {
        Map<String, String> headers = message.headers();
        if (headers.containsKey(Outbox.ID_HEADER)) {
            // an id copied from another message (headers passed on from a delivery): this message gets its own
            headers = new java.util.LinkedHashMap<>(headers);
            headers.remove(Outbox.ID_HEADER);
        }
        byte[] payload = message.payload();
        return r.statements().values(message.name(), payload == null ? new byte[0] : payload, headers,
                r.leaseOfNewRecord(outbox.clock().instant()));
    }

    private static OutboxException notWritten(Registration r, OutgoingMessage message, Exception e) {
        return new OutboxException("the outbox record of " + message.name() + " could not be written into \""
                + r.binding().tableName() + "\", so the message was not sent: " + e.getMessage()
                + " [SQL: " + r.statements().insert + "]", e);
    }
}
