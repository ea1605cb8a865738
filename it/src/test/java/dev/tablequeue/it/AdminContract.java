package dev.tablequeue.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.tablequeue.TableQueueException;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.DeadLetter;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueAdmin;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.broker.QueueRow;
import dev.tablequeue.broker.QueueStats;
import dev.tablequeue.broker.Throughput;
import dev.tablequeue.broker.Redrive;
import dev.tablequeue.test.contract.Jobs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What {@link QueueAdmin} reads and repairs, on each database: stats per queue, redrives from a dead-letter
 * group and table, purges, and the pause of a broker's subscription. Per-database classes name their
 * {@link TestDatabase}.
 */
public abstract class AdminContract extends AdminFixture {

    // ================================================================ stats

    @ParameterizedTest
    @EnumSource(Form.class)
    public final void stats_count_each_state_of_a_queue_and_no_other_queues_rows(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        insertRow(t, "emails", NOW.minusSeconds(90), 1);
        insertRow(t, "emails", NOW.minusSeconds(10), 2);
        insertRow(t, "emails", NOW, 1);
        insertRow(t, "emails", NOW.plusSeconds(60), 1);
        insertRow(t, "emails", NOW.plusSeconds(3600), 3);
        long leased = insertRow(t, "emails", NOW.minusSeconds(200), 2);
        setTime(t, leased, "locked_until", NOW.plusSeconds(30));
        setTime(t, insertRow(t, "emails", NOW.minusSeconds(500), 1), "processed_at", NOW.minus(Duration.ofDays(1)));
        setTime(t, insertRow(t, "emails", NOW.minusSeconds(500), 4), "processed_at", NOW.minusSeconds(5));
        insertRow(t, "escalated", NOW.minusSeconds(999), 5);
        insertRow(t, "escalated", NOW.minusSeconds(999), 5);
        insertRow(t, "other", NOW.minusSeconds(999), 1);

        QueueStats stats = admin().stats(InboxQueue.of(b, "emails"), DeadLetter.group("escalated"));

        assertThat(stats.table()).isEqualTo(t.getName());
        assertThat(stats.queue()).isEqualTo("emails");
        assertThat(stats.scheduled()).isEqualTo(2);
        assertThat(stats.processed()).isEqualTo(2);
        assertThat(stats.dead()).hasValue(2);
        assertThat(stats.attempts()).containsExactly(Map.entry(1, 3L), Map.entry(2, 2L), Map.entry(3, 1L));
        if (form == Form.LEASE) {
            // the leased row is in work, every process's claim alike; the oldest pending row is the first
            assertThat(stats.pending()).isEqualTo(3);
            assertThat(stats.inWork()).hasValue(1);
            assertThat(stats.oldestPendingAge()).hasValue(Duration.ofSeconds(90));
        } else {
            // the table marks no row in work in these forms: a lease column they do not read is not a claim
            assertThat(stats.pending()).isEqualTo(4);
            assertThat(stats.inWork()).isEmpty();
            assertThat(stats.oldestPendingAge()).hasValue(Duration.ofSeconds(200));
        }
    }

    @Test
    public final void stats_of_an_empty_queue_have_no_age_and_without_a_dead_letter_no_dead_count() {
        Jobs t = newTable();
        QueueStats stats = admin().stats(InboxQueue.of(binding(t, preferredForm()), "emails"));

        assertThat(stats.pending()).isZero();
        assertThat(stats.oldestPendingAge()).isEmpty();
        assertThat(stats.dead()).isEmpty();
        assertThat(stats.attempts()).isEmpty();
    }

    @Test
    public final void stats_count_the_queues_rows_in_a_dead_letter_table() {
        Jobs t = newTable();
        Jobs dead = newTable();
        insertRow(dead, "emails", NOW.minusSeconds(5), 3);
        insertRow(dead, "emails", NOW.minusSeconds(5), 3);
        insertRow(dead, "other", NOW.minusSeconds(5), 3);

        QueueStats stats = admin().stats(InboxQueue.of(binding(t, preferredForm()), "emails"), DeadLetter.table(dead));

        assertThat(stats.dead()).hasValue(2);
    }

    @Test
    public final void the_oldest_pending_age_is_the_same_in_any_jvm_time_zone() {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        insertRow(t, "emails", NOW.minus(Duration.ofMinutes(75)), 1);
        TimeZone original = TimeZone.getDefault();
        for (String zone : List.of("Pacific/Kiritimati", "America/St_Johns", "UTC")) {
            TimeZone.setDefault(TimeZone.getTimeZone(zone));
            // a pool of its own, so the drivers' sessions start in that zone too
            try (HikariDataSource zoned = db.pool(2)) {
                QueueStats stats = QueueAdmin.of(zoned).withClock(clock).stats(InboxQueue.of(b, "emails"));
                assertThat(stats.oldestPendingAge()).as("in %s", zone).hasValue(Duration.ofMinutes(75));
            } finally {
                TimeZone.setDefault(original);
            }
        }
    }

    @Test
    public final void an_admin_of_a_broker_counts_its_deliveries_in_work_and_reads_the_dead_letter_it_declares()
            throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        InboxQueue<Record> queue = InboxQueue.of(b, "emails");
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        QueueBroker broker = broker();
        broker.subscribe(queue).payload(Job.class).maxAttempts(3).deadLetter("escalated").handle((job, d) -> {
            entered.countDown();
            release.await(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            return Outcome.ack();
        });
        broker.start();
        insertRow(t, "escalated", NOW.minusSeconds(10), 3);
        publish(broker, b, "emails", 1);
        assertThat(entered.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();

        QueueStats stats = QueueAdmin.of(broker).stats(queue);
        release.countDown();

        assertThat(stats.inWork()).hasValue(1);
        assertThat(stats.dead()).hasValue(1);
    }

    // ================================================================ redrive

    @Test
    public final void a_redrive_from_a_group_moves_its_unfinished_dead_letters_back_with_a_fresh_attempt() {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        long first = insertRow(t, "escalated", NOW.minusSeconds(10), 5);
        long second = insertRow(t, "escalated", NOW.minusSeconds(10), 5);
        long handled = insertRow(t, "escalated", NOW.minusSeconds(10), 5);
        setTime(t, handled, "processed_at", NOW.minusSeconds(1));
        long elsewhere = insertRow(t, "other", NOW.minusSeconds(10), 5);

        long moved = admin().redrive(InboxQueue.of(b, "emails"), DeadLetter.group("escalated"), Redrive.all());

        assertThat(moved).isEqualTo(2);
        assertThat(groupAndAttempt(t, first)).isEqualTo("emails/1");
        assertThat(groupAndAttempt(t, second)).isEqualTo("emails/1");
        assertThat(groupAndAttempt(t, handled)).isEqualTo("escalated/5");
        assertThat(groupAndAttempt(t, elsewhere)).isEqualTo("other/5");
    }

    @Test
    public final void a_redrive_by_id_or_by_age_moves_only_the_rows_it_names() {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        long old = insertRow(t, "escalated", NOW.minus(Duration.ofHours(3)), 5);
        long recent = insertRow(t, "escalated", NOW.minus(Duration.ofMinutes(5)), 5);
        long named = insertRow(t, "escalated", NOW.minus(Duration.ofMinutes(5)), 5);
        QueueAdmin admin = admin();
        InboxQueue<Record> queue = InboxQueue.of(b, "emails");

        // an id as text, as the command line gives it, converts to the id column's type
        assertThat(admin.redrive(queue, DeadLetter.group("escalated"), Redrive.ids(List.of(String.valueOf(named)))))
                .isEqualTo(1);
        assertThat(admin.redrive(queue, DeadLetter.group("escalated"), Redrive.olderThan(Duration.ofHours(1))))
                .isEqualTo(1);

        assertThat(groupAndAttempt(t, named)).isEqualTo("emails/1");
        assertThat(groupAndAttempt(t, old)).isEqualTo("emails/1");
        assertThat(groupAndAttempt(t, recent)).isEqualTo("escalated/5");
    }

    @Test
    public final void a_redrive_from_a_table_copies_the_queues_rows_back_and_deletes_them_in_batches() {
        Jobs t = newTable();
        Jobs dead = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        int many = 1234;
        List<org.jooq.Query> inserts = new ArrayList<>();
        for (int i = 0; i < many; i++) {
            inserts.add(dsl().insertInto(dead).set(dead.ID, (long) (10_000 + i)).set(dead.GRP, "emails")
                    .set(dead.ATTEMPT, 5).set(dead.NOTE, "n" + i).set(dead.PAYLOAD, ("{\"n\":" + i + "}").getBytes()));
        }
        dsl().batch(inserts).execute();
        long otherQueue = insertRow(dead, "other", NOW.minusSeconds(10), 5);

        long moved = admin().redrive(InboxQueue.of(b, "emails"), DeadLetter.table(dead), Redrive.all());

        assertThat(moved).isEqualTo(many);
        assertThat(count(t, "grp = 'emails' and attempt = 1")).isEqualTo(many);
        assertThat(dsl().fetchValue(DSL.select(t.NOTE).from(t).where(t.ID.eq(10_007L)))).isEqualTo("n7");
        assertThat(dsl().fetchCount(dead)).isEqualTo(1);
        assertThat(dsl().fetchValue(DSL.select(dead.ID).from(dead))).isEqualTo(otherQueue);
    }

    @Test
    public final void a_redrive_from_a_table_by_id_moves_that_row_alone() {
        Jobs t = newTable();
        Jobs dead = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        long kept = insertRow(dead, "emails", NOW.minusSeconds(10), 4);
        long named = insertRow(dead, "emails", NOW.minusSeconds(10), 4);

        long moved = admin().redrive(InboxQueue.of(b, "emails"), DeadLetter.table(dead), Redrive.ids(List.of(named)));

        assertThat(moved).isEqualTo(1);
        assertThat(groupAndAttempt(t, named)).isEqualTo("emails/1");
        assertThat(dsl().fetchValue(DSL.select(dead.ID).from(dead))).isEqualTo(kept);
    }

    @Test
    public final void redriven_dead_letters_are_delivered_again_by_a_broker() {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        InboxQueue<Record> queue = InboxQueue.of(b, "emails");
        QueueBroker failing = broker();
        failing.subscribe(queue).payload(Job.class).maxAttempts(1).deadLetter("escalated")
                .handle((job, d) -> Outcome.retry());
        failing.start();
        publish(failing, b, "emails", 3);
        await().atMost(PATIENCE).until(() -> count(t, "grp = 'escalated'") == 3);
        failing.close();

        QueueBroker healthy = broker();
        healthy.subscribe(queue).payload(Job.class).maxAttempts(1).deadLetter("escalated")
                .handle((job, d) -> Outcome.ack());
        healthy.start();
        assertThat(QueueAdmin.of(healthy).redrive(queue, Redrive.all())).isEqualTo(3);

        await().atMost(PATIENCE).until(() -> count(t, "grp = 'emails' and processed_at is not null") == 3);
    }

    @Test
    public final void a_redrive_by_age_of_a_table_without_retry_after_is_refused_naming_the_table_and_column() {
        Jobs t = newTable();
        RoleBinding<Record> b = bindingWithout(t, preferredForm(), "retry_after");

        assertThatThrownBy(() -> admin().redrive(InboxQueue.of(b, "emails"), DeadLetter.group("escalated"),
                Redrive.olderThan(Duration.ofHours(1))))
                .isInstanceOf(TableQueueException.class)
                .hasMessageContaining(t.getName())
                .hasMessageContaining("retryAfter");
    }

    // ================================================================ purge

    @Test
    public final void a_purge_deletes_the_queues_rows_processed_longer_ago_than_the_age() {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        long old = insertRow(t, "emails", NOW.minus(Duration.ofDays(9)), 1);
        setTime(t, old, "processed_at", NOW.minus(Duration.ofDays(8)));
        long recent = insertRow(t, "emails", NOW.minus(Duration.ofDays(9)), 1);
        setTime(t, recent, "processed_at", NOW.minus(Duration.ofDays(6)));
        long unfinished = insertRow(t, "emails", NOW.minus(Duration.ofDays(9)), 1);
        long otherQueue = insertRow(t, "other", NOW.minus(Duration.ofDays(9)), 1);
        setTime(t, otherQueue, "processed_at", NOW.minus(Duration.ofDays(8)));

        long purged = admin().purge(InboxQueue.of(b, "emails"), Duration.ofDays(7));

        assertThat(purged).isEqualTo(1);
        assertThat(dsl().fetch(DSL.select(t.ID).from(t).orderBy(t.ID)).getValues(t.ID))
                .containsExactly(recent, unfinished, otherQueue);
    }

    @Test
    public final void a_purge_of_more_rows_than_one_batch_deletes_every_old_row_and_leaves_the_rest() {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        var insert = dsl().insertInto(t, t.GRP, t.ATTEMPT, t.PAYLOAD);
        for (int i = 0; i < 1_201; i++) {
            insert = insert.values("emails", 1, new byte[] {1});
        }
        insert.execute();
        long otherQueue = insertRow(t, "other", NOW.minus(Duration.ofDays(9)), 1);
        Object old = admin().dialect().timeValue(t.field("processed_at"), NOW.minus(Duration.ofDays(8)));
        Object recent = admin().dialect().timeValue(t.field("processed_at"), NOW.minus(Duration.ofDays(6)));
        // every fourth row acknowledged recently, between old ones in each batch of ids
        dsl().update(t).set(DSL.field(DSL.name("processed_at"), Object.class), old).execute();
        dsl().update(t).set(DSL.field(DSL.name("processed_at"), Object.class), recent)
                .where(t.ID.mod(4L).eq(0L)).and(t.GRP.eq("emails")).execute();
        List<Long> kept = dsl().select(t.ID).from(t).where(t.ID.mod(4L).eq(0L)).and(t.GRP.eq("emails"))
                .orderBy(t.ID).fetch(t.ID);
        assertThat(kept.size()).isBetween(300, 301);

        long purged = admin().purge(InboxQueue.of(b, "emails"), Duration.ofDays(7));

        assertThat(purged).isEqualTo(1_201 - kept.size());
        List<Long> left = new ArrayList<>(kept);
        left.add(otherQueue);
        assertThat(dsl().fetch(DSL.select(t.ID).from(t).orderBy(t.ID)).getValues(t.ID)).containsExactlyElementsOf(left);
    }

    @Test
    public final void a_purge_of_a_table_whose_acknowledgement_deletes_is_refused_naming_the_table() {
        Jobs t = newTable();
        RoleBinding<Record> b = bindingWithout(t, preferredForm(), "processed_at");

        assertThatThrownBy(() -> admin().purge(InboxQueue.of(b, "emails"), Duration.ofDays(7)))
                .isInstanceOf(TableQueueException.class)
                .hasMessageContaining(t.getName())
                .hasMessageContaining("processedAt");
    }

    // ================================================================ rows

    @ParameterizedTest
    @EnumSource(Form.class)
    public final void failing_rows_are_the_queues_retried_or_errored_unfinished_rows_in_due_order(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = Jobs.payloadRoles(t).lastError(t.LAST_ERROR).build();
        if (form != Form.ROW_LOCK) {
            b = form == Form.LEASE ? Jobs.payloadRoles(t).lastError(t.LAST_ERROR).lease(t.LOCKED_UNTIL).build()
                    : Jobs.payloadRoles(t).lastError(t.LAST_ERROR).advisory(t.getName() + "-{id}").build();
        }
        insertRow(t, "emails", NOW.minusSeconds(30), 1);
        long later = insertRow(t, "emails", NOW.plusSeconds(600), 3);
        long errored = insertRow(t, "emails", NOW.minusSeconds(60), 1);
        dsl().update(t).set(t.LAST_ERROR, "java.io.IOException: smtp down").where(t.ID.eq(errored)).execute();
        long done = insertRow(t, "emails", NOW.minusSeconds(90), 4);
        setTime(t, done, "processed_at", NOW.minusSeconds(5));
        insertRow(t, "other", NOW.minusSeconds(90), 4);

        List<QueueRow> rows = admin().failing(InboxQueue.of(b, "emails"), 10);

        assertThat(rows).extracting(QueueRow::id).containsExactly(errored, later);
        assertThat(rows.get(0).lastError()).hasValue("java.io.IOException: smtp down");
        assertThat(rows.get(0).attempt()).hasValue(1);
        assertThat(rows.get(1).attempt()).hasValue(3);
        assertThat(rows.get(1).due()).hasValue(NOW.plusSeconds(600));
        assertThat(admin().failing(InboxQueue.of(b, "emails"), 1)).hasSize(1);
    }

    @Test
    public final void dead_letters_are_listed_from_a_group_and_from_a_table() {
        Jobs t = newTable();
        Jobs dead = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        long first = insertRow(t, "escalated", NOW.minusSeconds(20), 5);
        long second = insertRow(t, "escalated", NOW.minusSeconds(10), 5);
        long inTable = insertRow(dead, "emails", NOW.minusSeconds(10), 5);
        insertRow(dead, "other", NOW.minusSeconds(10), 5);
        InboxQueue<Record> queue = InboxQueue.of(b, "emails");

        assertThat(admin().deadLetters(queue, DeadLetter.group("escalated"), 10)).extracting(QueueRow::id)
                .containsExactly(first, second);
        assertThat(admin().deadLetters(queue, DeadLetter.table(dead), 10)).extracting(QueueRow::id)
                .containsExactly(inTable);
    }

    @Test
    public final void retry_now_makes_a_scheduled_row_of_the_queue_due_and_leaves_other_queues_alone() {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        long scheduled = insertRow(t, "emails", NOW.plus(Duration.ofHours(2)), 2);
        long elsewhere = insertRow(t, "other", NOW.plus(Duration.ofHours(2)), 2);
        InboxQueue<Record> queue = InboxQueue.of(b, "emails");

        assertThat(admin().retryNow(queue, String.valueOf(scheduled))).isTrue();
        assertThat(admin().retryNow(queue, elsewhere)).isFalse();

        assertThat(admin().stats(queue).pending()).isEqualTo(1);
        assertThat(admin().failing(queue, 10).getFirst().due()).hasValue(NOW);
    }

    @Test
    public final void delete_removes_one_unfinished_row_of_the_queue_or_of_its_dead_letter() {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        long row = insertRow(t, "emails", NOW, 1);
        long dead = insertRow(t, "escalated", NOW, 5);
        long done = insertRow(t, "emails", NOW, 1);
        setTime(t, done, "processed_at", NOW);
        long elsewhere = insertRow(t, "other", NOW, 1);
        InboxQueue<Record> queue = InboxQueue.of(b, "emails");

        assertThat(admin().delete(queue, null, row)).isTrue();
        assertThat(admin().delete(queue, DeadLetter.group("escalated"), dead)).isTrue();
        assertThat(admin().delete(queue, null, done)).isFalse();
        assertThat(admin().delete(queue, null, elsewhere)).isFalse();

        assertThat(dsl().fetch(DSL.select(t.ID).from(t).orderBy(t.ID)).getValues(t.ID)).containsExactly(done, elsewhere);
    }

    @Test
    public final void throughput_counts_the_queues_acknowledgements_per_period_up_to_now() {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        for (int secondsAgo : new int[] {5, 50, 59, 61, 179, 181, 400}) {
            setTime(t, insertRow(t, "emails", NOW.minusSeconds(900), 1), "processed_at", NOW.minusSeconds(secondsAgo));
        }
        setTime(t, insertRow(t, "other", NOW.minusSeconds(900), 1), "processed_at", NOW.minusSeconds(5));
        insertRow(t, "emails", NOW.minusSeconds(900), 1);

        Throughput tp = admin().throughput(InboxQueue.of(b, "emails"), Duration.ofMinutes(1), 3);

        assertThat(tp.from()).isEqualTo(NOW.minusSeconds(180));
        assertThat(tp.counts()).containsExactly(1L, 1L, 3L);
        assertThat(tp.perSecond(2)).isEqualTo(3 / 60.0);
    }

    // ================================================================ subscriptions

    @Test
    public final void an_admin_of_a_broker_pauses_and_resumes_its_subscription() {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        InboxQueue<Record> queue = InboxQueue.of(b, "emails");
        QueueBroker broker = broker();
        broker.subscribe(queue).payload(Job.class).handle((job, d) -> Outcome.ack());
        broker.start();
        QueueAdmin admin = QueueAdmin.of(broker);

        admin.pause(queue);
        insertJobs(t, 2);
        assertThat(admin.isPaused(queue)).isTrue();
        await().during(POLL.multipliedBy(10)).atMost(PATIENCE).until(() -> count(t, "processed_at is null") == 2);
        admin.resume(queue);

        await().atMost(PATIENCE).until(() -> count(t, "processed_at is not null") == 2);
    }

    @Test
    public final void pausing_through_an_admin_without_a_broker_says_it_has_none() {
        Jobs t = newTable();
        InboxQueue<Record> queue = InboxQueue.of(binding(t, preferredForm()), "emails");

        assertThatThrownBy(() -> admin().pause(queue)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no broker")
                .hasMessageContaining(queue.toString());
    }
}
