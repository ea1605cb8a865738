package dev.tablequeue.spring;

import dev.tablequeue.outbox.memory.MemoryBroker;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The outbox suite's service: publishes {@code order-events} through the in-memory transport inside Spring's
 * transactions, each way a Boot service opens one, and reports what it saw inside the transaction.
 */
public class OrderService {
    private final MemoryBroker memory;
    private final DSLContext dsl;
    private final TransactionTemplate transactions;
    private final OrderOutboxTable table;
    private final SentLog sent;
    private final DataSource dataSource;

    OrderService(MemoryBroker memory, DSLContext dsl, TransactionTemplate transactions, OrderOutboxTable table,
            SentLog sent, DataSource dataSource) {
        this.dataSource = dataSource;
        this.memory = memory;
        this.dsl = dsl;
        this.transactions = transactions;
        this.table = table;
        this.sent = sent;
    }

    /** What the transaction saw just after its publish: the records it counts, the sends made so far. */
    record Inside(int records, int sends) {}

    private Inside inside() {
        return new Inside(dsl.fetchCount(table), sent.sends.size());
    }

    /** Publishes {@code order} with Boot's {@code DSLContext}, in the method's transaction, which commits. */
    @Transactional
    public Inside placeAndCommit(String order) {
        memory.publish(dsl, OutboxTestApp.ORDER_EVENTS, order);
        return inside();
    }

    /** Publishes {@code order} with no context at all, in the method's transaction, which commits. */
    @Transactional
    public Inside placeWithoutContextAndCommit(String order) {
        memory.publish(OutboxTestApp.ORDER_EVENTS, order);
        return inside();
    }

    /** Publishes {@code order} with Boot's {@code DSLContext}, then fails: the transaction rolls back. */
    @Transactional
    public void placeThenFail(String order) {
        memory.publish(dsl, OutboxTestApp.ORDER_EVENTS, order);
        throw new IllegalStateException("placing " + order + " failed");
    }

    /** Publishes {@code order} without a context, then fails: the transaction rolls back. */
    @Transactional
    public void placeWithoutContextThenFail(String order) {
        memory.publish(OutboxTestApp.ORDER_EVENTS, order);
        throw new IllegalStateException("placing " + order + " failed");
    }

    /** Publishes {@code order} inside a {@link TransactionTemplate}; {@code commit} false marks it rollback-only. */
    public Inside placeInTemplate(String order, boolean commit) {
        return transactions.execute(status -> {
            memory.publish(dsl, OutboxTestApp.ORDER_EVENTS, order);
            Inside seen = inside();
            if (!commit) {
                status.setRollbackOnly();
            }
            return seen;
        });
    }

    /** Publishes {@code order} inside a jOOQ {@code transactionResult(..)} on Boot's {@code DSLContext}. */
    public Inside placeInJooqTransaction(String order) {
        return dsl.transactionResult(cfg -> {
            memory.publish(cfg.dsl(), OutboxTestApp.ORDER_EVENTS, order);
            return new Inside(cfg.dsl().fetchCount(table), sent.sends.size());
        });
    }

    /** Publishes {@code order} inside a jOOQ {@code transactionResult(..)}, which then throws and rolls back. */
    public void placeInJooqTransactionThenFail(String order) {
        dsl.transactionResult(cfg -> {
            memory.publish(cfg.dsl(), OutboxTestApp.ORDER_EVENTS, order);
            throw new IllegalStateException("placing " + order + " failed");
        });
    }

    /**
     * Inside the method's transaction, publishes {@code order} with a context on a connection of its own, in a
     * transaction of that connection's own, which it rolls back.
     */
    @Transactional
    public void placeOnOwnConnection(String order) throws SQLException {
        try (Connection own = dataSource.getConnection()) {
            own.setAutoCommit(false);
            try {
                memory.publish(DSL.using(own, dsl.dialect()), OutboxTestApp.ORDER_EVENTS, order);
            } finally {
                own.rollback();
            }
        }
    }
}
