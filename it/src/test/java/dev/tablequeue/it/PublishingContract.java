package dev.tablequeue.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.tablequeue.BrokerClosedException;
import dev.tablequeue.TableQueueException;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.test.contract.Jobs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * Publishing: in the caller's transaction or on a connection of its own, in batches, by route, with headers
 * and a partition key; the wake-up it gives its subscription; and a publish after close.
 *
 * <p>A test of a form runs for each form the database takes; a test that needs a form the database lacks is
 * skipped (an assumption), never passed unrun. Each database runs this suite through a small subclass that
 * names its {@link TestDatabase}; the tests are final.
 */
public abstract class PublishingContract extends BrokerFixture {

    @Test
    public final void a_publish_in_the_callers_transaction_commits_or_rolls_back_with_it() {
        Queue q = queue(preferredForm());
        List<Integer> handled = new CopyOnWriteArrayList<>();
        q.emails().handle((job, d) -> {
            handled.add(job.n());
            return Outcome.ack();
        });
        q.start();
        try {
            dsl().transaction(tx -> {
                q.broker.publisher().publish(tx.dsl(), q.b, Message.of("emails", new Job(1, "rolled back")));
                throw new IllegalStateException("the order failed");
            });
        } catch (IllegalStateException expected) {
            // the transaction rolled back
        }
        dsl().transaction(tx -> q.broker.publisher()
                .publish(tx.dsl(), q.b, Message.of("emails", new Job(2, "kept"))));
        q.awaitProcessed(1);
        assertThat(handled).containsExactly(2);
        assertThat(q.count("1 = 1")).isEqualTo(1);
    }

    @Test
    public final void publish_all_writes_its_messages_together_or_none_of_them() {
        Queue q = queue(preferredForm());
        List<Integer> handled = new CopyOnWriteArrayList<>();
        q.emails().workers(4).handle((job, d) -> {
            handled.add(job.n());
            return Outcome.ack();
        });
        q.start();
        List<Message> five = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            five.add(Message.of("emails", new Job(i, "batch")));
        }
        q.broker.publisher().publishAll(q.b, five);

        // in the caller's transaction: rolled back with it
        try {
            dsl().transaction(tx -> {
                q.broker.publisher().publishAll(tx.dsl(), q.b, List.of(
                        Message.of("emails", new Job(10, "rolled back")),
                        Message.of("emails", new Job(11, "rolled back"))));
                throw new IllegalStateException("the order failed");
            });
        } catch (IllegalStateException expected) {
            // the transaction rolled back
        }
        // a message the table cannot keep fails the whole batch, before any row is written
        assertThatThrownBy(() -> q.broker.publisher().publishAll(q.b, List.of(
                Message.of("emails", new Job(20, "fine")),
                Message.of("emails", new Job(21, "unwritable"))
                        .set(DSL.field(DSL.name("no_such_column"), Integer.class), 1))))
                .isInstanceOf(dev.tablequeue.TableQueueException.class)
                .hasMessageContaining(q.t.getName());

        q.awaitProcessed(5);
        assertThat(handled).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
        assertThat(q.count("1 = 1")).isEqualTo(5);
    }

    @Test
    public final void a_publish_wakes_its_subscription_before_the_poll_interval() {
        Queue q = queue(preferredForm(), settings -> settings.pollInterval(Duration.ofHours(1)));
        CountDownLatch handled = new CountDownLatch(1);
        q.emails().handle((job, d) -> {
            handled.countDown();
            return Outcome.ack();
        });
        q.start().publish(1);
        await().atMost(PATIENCE).until(() -> handled.getCount() == 0);
    }

    @Test
    public final void routes_lead_names_into_tables_by_exact_name_then_longest_prefix() {
        Jobs mails = newTable();
        Jobs reports = newTable();
        Jobs audits = newTable();
        RoleBinding<Record> mailQueue = binding(mails, preferredForm());
        RoleBinding<Record> reportQueue = binding(reports, preferredForm());
        RoleBinding<Record> auditQueue = binding(audits, preferredForm());
        QueueBroker broker = QueueBroker.builder(pool).clock(clock).pollInterval(POLL)
                .route("emails", mailQueue)
                .route("reports.*", reportQueue)
                .route("reports.audit.*", auditQueue, (ctx, message, payload) -> ctx.insertInto(audits)
                        .set(audits.GRP, message.name())
                        .set(audits.NOTE, "written by the service's own insert")
                        .set(audits.PAYLOAD, payload)
                        .execute())
                .build();
        brokers.add(broker);
        broker.publisher().publish("emails", new Job(1, "mail"));
        broker.publisher().publish("reports.daily", new Job(2, "report"));
        broker.publisher().publish(Message.of("reports.audit.q3", new Job(3, "audit")));
        assertThat(count(mails, "grp = 'emails'")).isEqualTo(1);
        assertThat(count(reports, "grp = 'reports.daily'")).isEqualTo(1);
        assertThat(count(audits, "grp = 'reports.audit.q3' and note = 'written by the service''s own insert'"))
                .isEqualTo(1);
        assertThatThrownBy(() -> broker.publisher().publish("invoices", new Job(4, "nowhere")))
                .isInstanceOf(dev.tablequeue.NoRouteException.class)
                .hasMessageContaining("invoices");
        assertThatThrownBy(() -> broker.publisher().publish(mailQueue,
                Message.of("emails", new Job(5, "x")).set(mails.NOTE, "not written by the insert")))
                .isInstanceOf(TableQueueException.class)
                .hasMessageContaining("note");
    }

    /**
     * A subscription by name reads the table the name's route leads to (exact, else the longest prefix), the
     * name's own group there; it refuses a cap and a dead letter, and a name no route leads anywhere.
     */
    @Test
    public final void a_subscription_by_name_reads_the_table_its_route_leads_to() {
        Jobs mails = newTable();
        Jobs reports = newTable();
        RoleBinding<Record> mailQueue = binding(mails, preferredForm());
        RoleBinding<Record> reportQueue = binding(reports, preferredForm());
        List<String> handled = new CopyOnWriteArrayList<>();
        QueueBroker broker = broker(new dev.tablequeue.broker.BrokerListener() {},
                settings -> settings.route("emails", mailQueue).route("reports.*", reportQueue));
        broker.subscribe("emails").payload(Job.class).handle((job, d) -> {
            handled.add("emails " + job.n() + " from " + d.table());
            return Outcome.ack();
        });
        broker.subscribe("reports.daily").payload(Job.class).workers(2).handle((job, d) -> {
            handled.add("reports.daily " + job.n() + " from " + d.table());
            return Outcome.ack();
        });
        assertThatThrownBy(() -> broker.subscribe("invoices")).isInstanceOf(dev.tablequeue.NoRouteException.class)
                .hasMessageContaining("invoices");
        broker.start();
        broker.publisher().publish("emails", new Job(1, "mail"));
        broker.publisher().publish("reports.daily", new Job(2, "report"));
        // another name of the prefix route: written into the same table, in a group no subscription reads
        broker.publisher().publish("reports.weekly", new Job(3, "report"));
        awaitCount(mails, "processed_at is not null", 1);
        awaitCount(reports, "processed_at is not null", 1);
        assertThat(handled).containsExactlyInAnyOrder("emails 1 from " + mails.getName(),
                "reports.daily 2 from " + reports.getName());
        assertThat(count(reports, "grp = 'reports.weekly' and processed_at is null")).isEqualTo(1);

        QueueBroker capped = broker(new dev.tablequeue.broker.BrokerListener() {},
                settings -> settings.route("emails", mailQueue));
        capped.subscribe("emails").payload(Job.class).maxAttempts(3).deadLetter("dead").handle((job, d) -> Outcome.ack());
        assertThatThrownBy(capped::start).isInstanceOf(dev.tablequeue.DeclarationException.class)
                .hasMessageContaining("by name").hasMessageContaining("maxAttempts(3)")
                .hasMessageContaining("InboxQueue.of(binding, \"emails\")");
    }

    @Test
    public final void a_publish_after_close_fails() {
        Queue q = queue(preferredForm());
        q.start();
        q.broker.close();
        assertThatThrownBy(() -> q.broker.publisher().publish(q.b, Message.of("emails", new Job(1, "late"))))
                .isInstanceOf(BrokerClosedException.class);
    }

    @Test
    public final void headers_and_the_partition_key_reach_the_delivery() {
        Queue q = queue(t -> RoleBinding.of(t, t.ID).group(t.GRP).partitionKey(t.PARTITION_KEY)
                .attempt(t.ATTEMPT).headers(t.HEADERS).payload(t.PAYLOAD).processedAt(t.PROCESSED_AT)
                .lease(t.LOCKED_UNTIL).build());
        AtomicReference<Delivery> seen = new AtomicReference<>();
        q.emails().handle((job, d) -> {
            seen.set(d);
            return Outcome.ack();
        });
        q.start();
        q.broker.publisher().publish(q.b, Message.of("emails", new Job(1, "mail")).header("trace", "t-1")
                .header("tenant", "acme").set(q.t.PARTITION_KEY, "customer-4"));
        await().atMost(PATIENCE).until(() -> seen.get() != null);
        assertThat(seen.get().headers()).containsEntry("trace", "t-1").containsEntry("tenant", "acme");
        assertThat(seen.get().partitionKey()).isEqualTo("customer-4");
        assertThat(seen.get().queue()).isEqualTo("emails");
    }
}
