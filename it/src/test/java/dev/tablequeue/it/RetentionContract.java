package dev.tablequeue.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tablequeue.DeclarationException;
import dev.tablequeue.SchemaException;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.DeadLetter;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueAdmin;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.broker.Retention;
import dev.tablequeue.broker.RetentionReport;
import dev.tablequeue.test.contract.Jobs;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jooq.Query;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Retention on each database: it deletes exactly the finished rows past their age (acknowledged, and dead letters
 * in a group or a table), in batches, while workers claim; it leaves every unfinished row and each value's newest
 * row where told; two instances never delete at once; and {@code start()} refuses what a table cannot have.
 * Rows are told apart by their note column. Passes are run through the admin; the brokers' own passes are a day
 * apart, so none runs during a test.
 */
public abstract class RetentionContract extends AdminFixture {
    private static final Duration ACKNOWLEDGED_AGE = Duration.ofDays(7);
    private static final Duration DEAD_AGE = Duration.ofDays(30);
    /** More than two of the broker's batches (100 rows each). */
    private static final int OLD_ACKNOWLEDGED = 250;
    private static final int OLD_DEAD = 120;
    private static final int JOBS = 200;

    // ================================================================ what is removed

    @ParameterizedTest
    @MethodSource("forms")
    public final void retention_removes_exactly_the_rows_past_their_age_in_batches_while_8_workers_claim(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        Instant acknowledgedCutoff = NOW.minus(ACKNOWLEDGED_AGE);
        Instant deadCutoff = NOW.minus(DEAD_AGE);
        insertRows(t, "emails", "old-ack", OLD_ACKNOWLEDGED, acknowledgedCutoff.minusSeconds(1), acknowledgedCutoff.minusSeconds(1));
        insertRows(t, "emails", "young-ack", 30, acknowledgedCutoff.plusSeconds(60), acknowledgedCutoff);
        // exactly at its age: not past it
        insertRows(t, "emails", "edge-ack", 1, acknowledgedCutoff, acknowledgedCutoff);
        insertRows(t, "escalated", "old-dead", OLD_DEAD, null, deadCutoff.minusSeconds(1));
        insertRows(t, "escalated", "young-dead", 10, null, deadCutoff.plusSeconds(1));
        // unfinished and old: due long ago in a queue nobody serves, retried
        insertRows(t, "later", "unfinished", 20, null, deadCutoff.minus(Duration.ofDays(100)));
        if (form == Form.LEASE) {
            long held = insertRows(t, "escalated", "held-dead", 1, null, deadCutoff.minusSeconds(1)).get(0);
            setTime(t, held, "locked_until", NOW.plusSeconds(600));
        }
        QueueBroker broker = brokerWith(s -> s.retentionEvery(Duration.ofDays(1))
                .retention(Retention.of(b).acknowledged(ACKNOWLEDGED_AGE)
                        .dead(DeadLetter.group("escalated"), t.RETRY_AFTER, DEAD_AGE)));
        Map<Integer, Integer> handled = new ConcurrentHashMap<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(8).handle((job, d) -> {
            handled.merge(job.n(), 1, Integer::sum);
            return Outcome.ack();
        });
        publish(broker, b, "emails", JOBS);
        broker.start();
        QueueAdmin admin = QueueAdmin.of(broker);

        // passes run while the workers claim, the first one over every old row
        RetentionReport first = single(admin.runRetention());
        List<RetentionReport> later = new ArrayList<>();
        while (count(t, "note is null and processed_at is not null") < JOBS) {
            later.add(single(admin.runRetention()));
        }

        assertThat(first.last().acknowledged()).isEqualTo(OLD_ACKNOWLEDGED);
        assertThat(first.last().dead()).isEqualTo(OLD_DEAD);
        // 250 acknowledged rows take three deletes, 120 dead ones two
        assertThat(first.last().batches()).isEqualTo(5);
        assertThat(first.last().heldElsewhere()).isFalse();
        assertThat(first.lastRun()).hasValue(NOW);
        assertThat(later).allSatisfy(r -> assertThat(r.last().acknowledged() + r.last().dead()).isZero());
        RetentionReport total = single(admin.retention());
        assertThat(total.table()).isEqualTo(t.getName());
        assertThat(total.acknowledgedRemoved()).isEqualTo(OLD_ACKNOWLEDGED);
        assertThat(total.deadRemoved()).isEqualTo(OLD_DEAD);

        assertThat(countByNote(t)).containsExactlyInAnyOrderEntriesOf(expectedAfter(form));
        assertThat(handled).hasSize(JOBS).allSatisfy((n, times) -> assertThat(times).isOne());
    }

    /** What each kind of row counts once retention has run: the old finished ones gone, the rest all there. */
    private static Map<String, Long> expectedAfter(Form form) {
        Map<String, Long> expected = new java.util.HashMap<>(Map.of("young-ack", 30L, "edge-ack", 1L,
                "young-dead", 10L, "unfinished", 20L, "job", (long) JOBS));
        if (form == Form.LEASE) {
            expected.put("held-dead", 1L);
        }
        return expected;
    }

    @Test
    public final void the_rows_acknowledged_in_the_test_age_with_the_clock_and_go_once_past_their_age() {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        insertRows(t, "emails", "ack", 3, NOW, NOW);
        Retention retention = Retention.of(b).acknowledged(ACKNOWLEDGED_AGE);

        clock.set(NOW.plus(ACKNOWLEDGED_AGE));
        assertThat(admin().runRetention(retention).last().acknowledged()).isZero();
        clock.set(NOW.plus(ACKNOWLEDGED_AGE).plusSeconds(1));
        assertThat(admin().runRetention(retention).last().acknowledged()).isEqualTo(3);
        assertThat(count(t, "1 = 1")).isZero();
    }

    @Test
    public final void keepNewestPer_keeps_the_newest_row_of_each_value_however_old() {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        Instant old = NOW.minus(ACKNOWLEDGED_AGE).minusSeconds(1);
        List<Long> nightly = insertRows(t, "emails", "nightly", 3, old, old);
        List<Long> hourly = insertRows(t, "emails", "hourly", 2, old, old);
        insertRows(t, "emails", null, 4, old, old);
        insertRows(t, "escalated", "nightly", 2, null, old.minus(DEAD_AGE));

        RetentionReport report = admin().runRetention(Retention.of(b).acknowledged(ACKNOWLEDGED_AGE)
                .dead(DeadLetter.group("escalated"), t.RETRY_AFTER, DEAD_AGE).keepNewestPer(t.NOTE));

        // the newest "nightly" row is a dead one: the acknowledged nightly rows go, as does the older dead one
        assertThat(report.last().acknowledged()).isEqualTo(3 + 1 + 4);
        assertThat(report.last().dead()).isEqualTo(1);
        assertThat(dsl().select(t.ID).from(t).orderBy(t.ID).fetch(t.ID))
                .containsExactly(hourly.get(1), maxId(t));
        assertThat(nightly).doesNotContain(maxId(t));
    }

    @Test
    public final void dead_letters_in_a_table_go_by_the_dead_letter_tables_own_column() {
        Jobs t = newTable();
        Jobs dead = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        insertRows(dead, "emails", "old-dead", 130, null, NOW.minus(DEAD_AGE).minusSeconds(1));
        insertRows(dead, "emails", "young-dead", 5, null, NOW.minus(DEAD_AGE).plusSeconds(1));
        insertRows(t, "emails", "old-pending", 5, null, NOW.minus(DEAD_AGE).minusSeconds(1));
        QueueBroker broker = brokerWith(s -> s.retentionEvery(Duration.ofDays(1))
                .retention(Retention.of(b).dead(DeadLetter.table(dead), dead.RETRY_AFTER, DEAD_AGE)));
        broker.start();

        RetentionReport report = single(QueueAdmin.of(broker).runRetention());

        assertThat(report.last().dead()).isEqualTo(130);
        assertThat(report.last().batches()).isEqualTo(2);
        assertThat(countByNote(dead)).containsExactlyInAnyOrderEntriesOf(Map.of("young-dead", 5L));
        assertThat(countByNote(t)).containsExactlyInAnyOrderEntriesOf(Map.of("old-pending", 5L));
    }

    // ================================================================ one instance at a time

    @Test
    public final void while_one_broker_deletes_another_finds_the_tables_lock_held_and_deletes_nothing()
            throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        Instant old = NOW.minus(ACKNOWLEDGED_AGE).minusSeconds(1);
        insertRows(t, "emails", "old-ack", 150, old, old);
        Retention retention = Retention.of(b).acknowledged(ACKNOWLEDGED_AGE);
        HeldDeletes held = new HeldDeletes(pool);
        QueueBroker first = database().broker(held).poolSize(12).clock(clock).retentionEvery(Duration.ofDays(1))
                .retention(retention).build();
        brokers.add(first);
        QueueBroker second = brokerWith(s -> s.retentionEvery(Duration.ofDays(1)).retention(retention));
        first.start();
        second.start();

        CompletableFuture<List<RetentionReport>> firstPass =
                CompletableFuture.supplyAsync(() -> QueueAdmin.of(first).runRetention());
        try {
            // the first broker holds the table's lock, stopped before its first delete
            assertThat(held.entered.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
            RetentionReport blocked = single(QueueAdmin.of(second).runRetention());
            assertThat(blocked.last().heldElsewhere()).isTrue();
            assertThat(blocked.last().acknowledged()).isZero();
            assertThat(count(t, "note = 'old-ack'")).isEqualTo(150);
            // nor does a one-off pass of the admin on the pool
            assertThat(admin().runRetention(retention).last().heldElsewhere()).isTrue();
        } finally {
            held.release.countDown();
        }

        RetentionReport done = single(firstPass.get(PATIENCE.toSeconds(), TimeUnit.SECONDS));
        assertThat(done.last().acknowledged()).isEqualTo(150);
        assertThat(done.last().heldElsewhere()).isFalse();
        RetentionReport after = single(QueueAdmin.of(second).runRetention());
        assertThat(after.last().heldElsewhere()).isFalse();
        assertThat(after.last().acknowledged()).isZero();
        assertThat(after.acknowledgedRemoved()).isZero();
        assertThat(count(t, "1 = 1")).isZero();
    }

    // ================================================================ refusals

    @ParameterizedTest
    @MethodSource("forms")
    public final void start_refuses_acknowledged_retention_on_a_table_that_deletes_its_acknowledged_rows(Form form) {
        Jobs t = newTable();
        RoleBinding<Record> b = bindingWithout(t, form, "processed_at");
        QueueBroker broker = brokerWith(s -> s.retention(Retention.of(b).acknowledged(ACKNOWLEDGED_AGE)));

        assertThatThrownBy(broker::start).isInstanceOf(DeclarationException.class)
                .hasMessageContaining("\"" + t.getName() + "\"")
                .hasMessageContaining("processedAt");
        assertThat(broker.isRunning()).isFalse();
    }

    @Test
    public final void start_refuses_a_dead_letter_age_read_from_a_column_of_another_table() {
        Jobs t = newTable();
        Jobs other = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        QueueBroker broker = brokerWith(s -> s.retention(Retention.of(b)
                .dead(DeadLetter.group("escalated"), other.PROCESSED_AT, DEAD_AGE)));

        assertThatThrownBy(broker::start).isInstanceOf(DeclarationException.class)
                .hasMessageContaining("\"" + t.getName() + "\"")
                .hasMessageContaining("\"processed_at\"");
    }

    @Test
    public final void start_refuses_a_dead_letter_group_on_a_table_without_groups() {
        Jobs t = newTable();
        RoleBinding<Record> b = bindingWithout(t, preferredForm(), "grp");
        QueueBroker broker = brokerWith(s -> s.retention(Retention.of(b)
                .dead(DeadLetter.group("escalated"), t.RETRY_AFTER, DEAD_AGE)));

        assertThatThrownBy(broker::start).isInstanceOf(DeclarationException.class)
                .hasMessageContaining("\"" + t.getName() + "\"")
                .hasMessageContaining("group column");
    }

    @Test
    public final void start_refuses_a_dead_letter_table_the_database_lacks() {
        Jobs t = newTable();
        Jobs missing = new Jobs("absent" + TABLES.incrementAndGet(), timeType());
        RoleBinding<Record> b = binding(t, preferredForm());
        QueueBroker broker = brokerWith(s -> s.retention(Retention.of(b)
                .dead(DeadLetter.table(missing), missing.RETRY_AFTER, DEAD_AGE)));

        assertThatThrownBy(broker::start).isInstanceOf(SchemaException.class)
                .hasMessageContaining("\"" + t.getName() + "\"")
                .hasMessageContaining(missing.getName());
    }

    // ================================================================ helpers

    /**
     * Inserts {@code n} rows of {@code group} noted {@code note}, processed at {@code processedAt} (null:
     * unfinished) and due at {@code due}, attempt 3; their ids in order.
     */
    private List<Long> insertRows(Jobs t, String group, String note, int n, Instant processedAt, Instant due) {
        var dialect = admin().dialect();
        List<Query> inserts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            inserts.add(dsl().insertInto(t).set(t.GRP, group).set(t.NOTE, note).set(t.ATTEMPT, 3)
                    .set(t.PAYLOAD, "{\"n\":-1,\"kind\":\"kept\"}".getBytes())
                    .set(DSL.field(DSL.name("retry_after"), Object.class), dialect.timeValue(t.RETRY_AFTER, due))
                    .set(DSL.field(DSL.name("processed_at"), Object.class),
                            processedAt == null ? null : dialect.timeValue(t.PROCESSED_AT, processedAt)));
        }
        long before = maxId(t);
        dsl().batch(inserts).execute();
        return dsl().select(t.ID).from(t).where(t.ID.gt(before)).orderBy(t.ID).fetch(t.ID);
    }

    private long maxId(Jobs t) {
        Long max = dsl().select(DSL.max(t.ID)).from(t).fetchOne(0, Long.class);
        return max == null ? 0 : max;
    }

    /** The rows of {@code t} by note; the publisher's rows, which have none, as "job". */
    private Map<String, Long> countByNote(Jobs t) {
        Map<String, Long> counts = new java.util.HashMap<>();
        dsl().select(t.NOTE, DSL.count()).from(t).groupBy(t.NOTE).fetch()
                .forEach(r -> counts.put(r.value1() == null ? "job" : r.value1(), r.value2().longValue()));
        return counts;
    }

    private QueueBroker brokerWith(java.util.function.UnaryOperator<QueueBroker.Builder> settings) {
        return broker(new dev.tablequeue.broker.BrokerListener() {}, settings);
    }

    private static RetentionReport single(List<RetentionReport> reports) {
        assertThat(reports).hasSize(1);
        return reports.get(0);
    }
}
