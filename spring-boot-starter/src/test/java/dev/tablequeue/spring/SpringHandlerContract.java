package dev.tablequeue.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Message;
import dev.tablequeue.outbox.Outbox;
import java.time.Duration;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A transactional handler inside Spring, run by one small subclass per database: while the handler runs, the
 * delivery's transaction is Spring's, so a {@code @Transactional} service it calls writes through it (with
 * Boot's {@code JdbcTemplate} and {@code DSLContext}); those writes commit with the acknowledgement and roll
 * back with every other outcome; an outbox publish in it is sent after that commit, and not at all otherwise.
 */
@ExtendWith(StarterDatabase.class)      // before @SpringBootTest: the database outlives the context
@SpringBootTest(classes = HandlerTestApp.class, properties = {
    "tablequeue.poll-interval=100ms",   // a retried row is claimed again soon
    "tablequeue.lease=10s"})
@DirtiesContext
abstract class SpringHandlerContract {
    static final Duration WAIT = Duration.ofSeconds(30);

    @Autowired
    LedgerHandler handler;
    @Autowired
    LedgerService ledger;
    @Autowired
    TransactionalPublisher publisher;
    @Autowired
    InboxQueue<Record> ledgerQueue;
    @Autowired
    JobTable table;
    @Autowired
    DSLContext dsl;
    @Autowired
    SentLog sent;
    @Autowired
    Outbox outbox;
    @Autowired
    OrderOutboxTable outboxTable;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        StarterDatabase.properties(registry);
    }

    @BeforeEach
    void empty() {
        assertThat(outbox.enabled()).as("the outbox tracks in this suite (no test kit switches it off)").isTrue();
        dsl.deleteFrom(outboxTable).execute();
        sent.sends.clear();
    }

    void publish(String job) {
        publisher.publish(ledgerQueue.binding(), Message.of(ledgerQueue.name(), new Job(job)));
    }

    /** Waits for the handler's {@code call}-th call for {@code job} and for every row of the queue to be settled. */
    void awaitSettled(String job, int call) {
        await().atMost(WAIT).until(() -> handler.called.contains(job + "#" + call));
        await().atMost(WAIT).until(() -> dsl.fetchCount(table, table.GRP.eq(ledgerQueue.name())
                .and(table.PROCESSED_AT.isNull())) == 0);
    }

    @Test
    final void what_a_transactional_service_writes_in_the_handler_commits_with_the_acknowledgement() {
        publish("ack-1");
        awaitSettled("ack-1", 1);
        assertThat(ledger.rows("ack-1")).as("the JdbcTemplate row and the DSLContext row").isEqualTo(2);
    }

    @Test
    final void what_a_transactional_service_writes_in_the_handler_rolls_back_when_the_handler_retries() {
        publish("retry-1");
        awaitSettled("retry-1", 2);
        assertThat(ledger.rows("retry-1")).isZero();
    }

    @Test
    final void what_a_transactional_service_writes_in_the_handler_rolls_back_when_the_handler_throws() {
        publish("throw-1");
        awaitSettled("throw-1", 2);
        assertThat(ledger.rows("throw-1")).isZero();
    }

    @Test
    final void a_service_failure_the_handler_swallows_rolls_the_delivery_back_and_it_comes_again() {
        publish("catch-1");
        awaitSettled("catch-1", 2);
        assertThat(ledger.rows("catch-1")).isZero();
    }

    @Test
    final void an_outbox_publish_in_the_handler_is_recorded_in_the_deliverys_transaction_and_sent_after_its_commit() {
        publish("publish-1");
        awaitSettled("publish-1", 1);
        assertThat(ledger.rows("publish-1")).isEqualTo(2);
        Long id = dsl.select(outboxTable.ID).from(outboxTable).fetchSingle(outboxTable.ID);
        await().atMost(WAIT).until(() -> !sent.sends.isEmpty());
        assertThat(sent.sends).containsExactly(new SentLog.Sent(OutboxTestApp.ORDER_EVENTS, String.valueOf(id), true));
    }

    @Test
    final void an_outbox_publish_in_a_handler_that_retries_is_neither_recorded_nor_sent() {
        publish("publish-retry-1");
        awaitSettled("publish-retry-1", 2);
        assertThat(ledger.rows("publish-retry-1")).isZero();
        assertThat(dsl.fetchCount(outboxTable)).isZero();
        assertThat(sent.sends).isEmpty();
    }

    @Test
    final void an_outbox_publish_with_boots_dsl_context_in_the_handler_is_sent_after_the_commit_and_not_after_a_retry() {
        publish("publish-dsl-retry-1");
        awaitSettled("publish-dsl-retry-1", 2);
        assertThat(dsl.fetchCount(outboxTable)).isZero();
        assertThat(sent.sends).as("sends of a delivery that retried").isEmpty();

        publish("publish-dsl-1");
        awaitSettled("publish-dsl-1", 1);
        Long id = dsl.select(outboxTable.ID).from(outboxTable).fetchSingle(outboxTable.ID);
        await().atMost(WAIT).until(() -> !sent.sends.isEmpty());
        assertThat(sent.sends).containsExactly(new SentLog.Sent(OutboxTestApp.ORDER_EVENTS, String.valueOf(id), true));
    }
}
