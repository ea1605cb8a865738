package dev.tablequeue.broker;

import dev.tablequeue.TableQueueException;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.QueueInserts;
import dev.tablequeue.transport.LeadingInsert;
import dev.tablequeue.transport.OutgoingMessage;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.DSLContext;

/**
 * A publish into a queue table as the publish middlewares see it. A header a middleware adds goes onto the
 * message itself, so the row's insert writes it; with the caller's context the insert joins its transaction.
 *
 * <p>A publish of one message in the caller's transaction, into a table the binding's insert writes, takes a
 * leading row ({@link #writeFirst}) where the dialect writes both rows in one statement: the send then runs
 * that statement ({@link #writeWithLeading}) in place of the binding's insert.
 */
final class TableOutgoing implements OutgoingMessage {
    private final Message message;
    private final DSLContext transaction;
    private final Codec codec;
    private final BrokerInserts inserts;
    private final RoleBinding<?> binding;
    private byte[] payload;
    private LeadingInsert leading;
    private QueueInserts.Leading leadingWrite;
    private List<?> leadingValues;

    /** A publish that takes no leading row. */
    TableOutgoing(Message message, DSLContext transaction, Codec codec) {
        this(message, transaction, codec, null, null);
    }

    /**
     * A publish into {@code binding}'s table with its insert, which takes a leading row where {@code inserts}
     * has a statement for it and there is a {@code transaction} (null {@code inserts}: it takes none).
     */
    TableOutgoing(Message message, DSLContext transaction, Codec codec, BrokerInserts inserts,
            RoleBinding<?> binding) {
        this.message = message;
        this.transaction = transaction;
        this.codec = codec;
        this.inserts = inserts;
        this.binding = binding;
    }

    @Override
    public String name() {
        return message.name();
    }

    @Override
    public byte[] payload() {
        if (payload == null && message.payload() != null) {
            try {
                payload = codec.encode(message.payload());
            } catch (Exception e) {
                throw new TableQueueException("the payload of " + message.name() + " does not encode: "
                        + e.getMessage(), e);
            }
        }
        return payload;
    }

    @Override
    public Map<String, String> headers() {
        return message.headers();
    }

    @Override
    public void header(String key, String value) {
        message.header(key, value);
    }

    @Override
    public DSLContext transaction() {
        return transaction;
    }

    @Override
    public boolean sendJoinsTransaction() {
        return transaction != null;
    }

    @Override
    public boolean writeFirst(LeadingInsert insert, List<?> values) {
        if (transaction == null || inserts == null || leadingWrite != null) {
            // no transaction, a send the binding's insert does not write, or a leading row taken already
            return false;
        }
        Optional<QueueInserts.Leading> write = inserts.leading(binding, insert);
        if (write.isEmpty()) {
            return false;
        }
        leading = insert;
        leadingWrite = write.get();
        leadingValues = values;
        return true;
    }

    /** Whether a middleware asked for a leading row, which {@link #writeWithLeading} writes. */
    boolean leads() {
        return leadingWrite != null;
    }

    /**
     * Writes the leading row and the message's row ({@code values}: the binding's insert values) in one
     * statement, and puts the leading row's id into the message's header. A failure writes neither.
     *
     * @return the message row's id, where the statement returns it (its second column); else null
     */
    Object writeWithLeading(Connection c, List<Object> values) {
        QueueInserts.Ids ids;
        try {
            ids = leadingWrite.write(c, values, leadingValues);
        } catch (SQLException e) {
            throw new TableQueueException("the publish of " + message.name() + " into \"" + binding.tableName()
                    + "\", with the row a publish middleware writes first into \"" + leading.table().getName()
                    + "\", failed: neither row was written, and the message was not sent: " + e.getMessage()
                    + " [SQL: " + leadingWrite.statement().sql() + "]", e);
        }
        message.header(leading.idHeader(), ids.leadingId());
        return ids.messageId();
    }
}
