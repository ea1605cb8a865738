package dev.tablequeue.outbox;

import dev.tablequeue.transport.OutgoingMessage;
import dev.tablequeue.transport.PublishMiddleware;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;

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
 *       others through {@link Outbox#afterCommit()}); a rollback sends nothing. A connection in auto-commit
 *       has committed the record already, so its send follows at once. A transaction the outbox cannot see
 *       end is refused before anything is written. The publish says the send follows the commit
 *       ({@link OutgoingMessage#sendsAfterCommit()}, a result's {@code deferred()}).
 *   <li>A record that cannot be written fails the publish: nothing is sent.
 * </ul>
 *
 * A name that is not registered passes after one map lookup, and a record sent again by the republish passes
 * as it is. Any other message of a registered name gets a record of its own, and an id header it already
 * carried (copied from a delivery's headers, or left by an earlier publish of the same message) is replaced.
 */
final class PublishTracking implements PublishMiddleware {
    private final Outbox outbox;
    private final DataSource dataSource;

    PublishTracking(Outbox outbox, DataSource dataSource) {
        this.outbox = outbox;
        this.dataSource = dataSource;
    }

    @Override
    public void publish(OutgoingMessage message, Send next) throws Exception {
        Registration r = outbox.registration(message.name());
        if (r == null || Republisher.isResending()) {
            next.send(message);
            return;
        }
        DSLContext tx = message.transaction();
        if (tx == null) {
            Object id;
            try (Connection c = dataSource.getConnection()) {
                id = insert(r, c, message);
            } catch (SQLException e) {
                throw notWritten(r, message, e);
            }
            message.header(Outbox.ID_HEADER, id.toString());
            message.recorded(r.binding().tableName(), r.binding().id().getDataType().convert(id));
            next.send(message);
            return;
        }
        if (message.sendJoinsTransaction() && message.writeFirst(r.statements().leading, values(r, message))) {
            next.send(message);
            return;
        }
        AfterCommit frame = message.sendJoinsTransaction() ? null : AfterCommit.current();
        Object id;
        try {
            id = tx.connectionResult(c -> {
                if (!message.sendJoinsTransaction() && frame == null && !c.getAutoCommit()) {
                    throw new OutboxException("the publish of " + message.name() + " was given a transaction the"
                            + " outbox cannot see commit, so it cannot send after the commit: run it in a jOOQ"
                            + " transaction of a configuration that carries Outbox.transactionListener(), or open"
                            + " Outbox.afterCommit() around it and call committed() after the commit");
                }
                return insert(r, c, message);
            });
        } catch (DataAccessException e) {
            throw notWritten(r, message, e.getCause() instanceof SQLException s ? s : e);
        }
        message.header(Outbox.ID_HEADER, id.toString());
        message.recorded(r.binding().tableName(), r.binding().id().getDataType().convert(id));
        if (frame == null) {
            next.send(message);
        } else {
            message.sendsAfterCommit();
            frame.hold(() -> next.send(message));
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
