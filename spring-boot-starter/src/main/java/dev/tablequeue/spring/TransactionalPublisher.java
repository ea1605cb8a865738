package dev.tablequeue.spring;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.PublishResult;
import dev.tablequeue.broker.Publisher;
import dev.tablequeue.broker.QueueBroker;
import java.sql.Connection;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.springframework.jdbc.datasource.DataSourceUtils;

/**
 * Publishes in the Spring transaction of the calling thread: inside a {@code @Transactional} method the row
 * is written on that transaction's connection, so it commits or rolls back with the method's work, and its
 * subscriptions are woken after the commit. Outside a transaction each publish commits on a connection of
 * its own and wakes them at once.
 *
 * <pre>{@code
 * @Transactional
 * public void signUp(String email) {
 *     accounts.insert(email);
 *     publisher.publish(Queues.SIGNUPS, Message.of("welcome", new Welcome(email)));
 * }
 * }</pre>
 */
public final class TransactionalPublisher {
    private final Publisher publisher;
    private final DataSource dataSource;
    private final SQLDialect dialect;

    /** A publisher of {@code broker}'s rows on the connections Spring's transactions hold on {@code dataSource}. */
    public TransactionalPublisher(QueueBroker broker, DataSource dataSource) {
        this.publisher = broker.publisher();
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.dialect = broker.dialect().sqlDialect();
    }

    /**
     * Publishes {@code payload} under {@code name}, into the table a route of the broker leads the name to.
     *
     * @return the row's id and table; inside a transaction, the row is visible to others once it commits
     */
    public PublishResult publish(String name, Object payload) {
        return publish(Message.of(name, payload));
    }

    /** Publishes {@code message} into the table a route of the broker leads its name to; returns its row's id. */
    public PublishResult publish(Message message) {
        return onTransactionConnection(ctx -> publisher.publish(ctx, message));
    }

    /** Publishes {@code message} into {@code binding}'s table; returns its row's id. */
    public PublishResult publish(RoleBinding<?> binding, Message message) {
        return onTransactionConnection(ctx -> publisher.publish(ctx, binding, message));
    }

    /**
     * Publishes {@code messages} into {@code binding}'s table, the insert sent once as a JDBC batch; returns
     * one result per message, in order.
     */
    public List<PublishResult> publishAll(RoleBinding<?> binding, List<Message> messages) {
        return onTransactionConnection(ctx -> publisher.publishAll(ctx, binding, messages));
    }

    /** The broker's own publisher, whose publishes without a {@code DSLContext} commit on their own. */
    public Publisher publisher() {
        return publisher;
    }

    /**
     * Runs {@code publish} on the connection of the thread's Spring transaction (the one
     * {@link DataSourceUtils} finds bound to the data source), or on a new one where none is open.
     */
    private <T> T onTransactionConnection(Function<DSLContext, T> publish) {
        Connection c = DataSourceUtils.getConnection(dataSource);
        try {
            return publish.apply(DSL.using(c, dialect));
        } finally {
            DataSourceUtils.releaseConnection(c, dataSource);
        }
    }
}
