package dev.tablequeue.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tablequeue.outbox.Outbox;
import java.util.List;
import org.jooq.DSLContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The outbox inside a Boot service's Spring transactions, with no bridge of the service's own, run by one small
 * subclass per database: a publish inside a {@code @Transactional} method, a {@code TransactionTemplate} or a
 * jOOQ {@code transactionResult(..)} on Boot's {@code DSLContext} writes its record in that transaction and is
 * sent once, after the commit, with the record committed; after a rollback there is no record and no send.
 */
@ExtendWith(StarterDatabase.class)      // before @SpringBootTest: the database outlives the context
@SpringBootTest(classes = OutboxTestApp.class, properties = "tablequeue.poll-interval=30s")
@DirtiesContext
abstract class SpringOutboxContract {

    @Autowired
    OrderService orders;
    @Autowired
    SentLog sent;
    @Autowired
    Outbox outbox;
    @Autowired
    DSLContext dsl;
    @Autowired
    OrderOutboxTable table;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        StarterDatabase.properties(registry);
    }

    @BeforeEach
    void empty() {
        assertThat(outbox.enabled()).as("the outbox tracks in this suite (no test kit switches it off)").isTrue();
        dsl.deleteFrom(table).execute();
        sent.sends.clear();
    }

    private List<Long> recordIds() {
        return dsl.select(table.ID).from(table).orderBy(table.ID).fetch(table.ID);
    }

    /** The one record committed was sent exactly once, after its commit, carrying its id. */
    private void sentOnceAfterCommit(OrderService.Inside inside) {
        assertThat(inside.records()).as("the record, seen inside the transaction").isEqualTo(1);
        assertThat(inside.sends()).as("sends made inside the transaction").isZero();
        List<Long> ids = recordIds();
        assertThat(ids).as("records committed").hasSize(1);
        assertThat(sent.sends).containsExactly(
                new SentLog.Sent(OutboxTestApp.ORDER_EVENTS, String.valueOf(ids.get(0)), true));
    }

    private void nothingRecordedNorSent() {
        assertThat(recordIds()).as("records after the rollback").isEmpty();
        assertThat(sent.sends).as("sends after the rollback").isEmpty();
    }

    @Test
    final void a_publish_in_a_transactional_method_records_in_its_transaction_and_sends_once_after_the_commit() {
        sentOnceAfterCommit(orders.placeAndCommit("order-1"));
    }

    @Test
    final void a_publish_in_a_transactional_method_that_throws_records_nothing_and_sends_nothing() {
        assertThatThrownBy(() -> orders.placeThenFail("order-2")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("placing order-2 failed");
        nothingRecordedNorSent();
    }

    @Test
    final void a_publish_without_a_context_in_a_transactional_method_joins_its_transaction_too() {
        sentOnceAfterCommit(orders.placeWithoutContextAndCommit("order-3"));
        sent.sends.clear();
        dsl.deleteFrom(table).execute();
        assertThatThrownBy(() -> orders.placeWithoutContextThenFail("order-4")).isInstanceOf(IllegalStateException.class);
        nothingRecordedNorSent();
    }

    @Test
    final void a_publish_in_a_transaction_template_sends_after_its_commit_and_nothing_after_its_rollback() {
        sentOnceAfterCommit(orders.placeInTemplate("order-5", true));
        sent.sends.clear();
        dsl.deleteFrom(table).execute();
        OrderService.Inside rolledBack = orders.placeInTemplate("order-6", false);
        assertThat(rolledBack.records()).isEqualTo(1);
        nothingRecordedNorSent();
    }

    @Test
    final void a_publish_in_a_jooq_transaction_on_boots_dsl_context_sends_after_its_commit_and_nothing_after_its_rollback() {
        sentOnceAfterCommit(orders.placeInJooqTransaction("order-7"));
        sent.sends.clear();
        dsl.deleteFrom(table).execute();
        assertThatThrownBy(() -> orders.placeInJooqTransactionThenFail("order-8"))
                .hasMessageContaining("placing order-8 failed");
        nothingRecordedNorSent();
    }

    @Test
    final void a_context_on_a_connection_of_the_callers_own_in_a_transaction_of_its_own_is_still_refused() {
        // Spring's transaction is not this connection's: its commit is not one the outbox can wait for
        assertThatThrownBy(() -> orders.placeOnOwnConnection("order-9"))
                .hasMessageContaining("the publish of order-events was given a transaction the outbox cannot see commit");
        nothingRecordedNorSent();
    }
}
