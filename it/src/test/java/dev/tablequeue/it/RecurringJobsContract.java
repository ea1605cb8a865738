package dev.tablequeue.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.tablequeue.DeclarationException;
import dev.tablequeue.SchemaException;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueAdmin;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.broker.Retention;
import dev.tablequeue.broker.RetentionReport;
import dev.tablequeue.broker.Schedule;
import dev.tablequeue.broker.ScheduleState;
import dev.tablequeue.micrometer.TableQueueMetrics;
import dev.tablequeue.test.contract.Jobs;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jooq.Record;
import org.junit.jupiter.api.Test;

/**
 * Recurring jobs: a schedule publishes one row per due instant into a table whose unique key keeps each instant to
 * one row across brokers ({@code name@instant}); a broker started after instants were missed runs the latest once
 * or skips them, as declared; a cron expression in Europe/Berlin runs a wall time in the spring gap once at the
 * shifted instant and one in the autumn overlap once; a changed schedule takes effect after the newest row; the
 * start refuses a table that cannot keep an instant to one row. Time is the fixture's settable clock, moved by the
 * tests. Each database runs it through a small subclass; the tests are final.
 */
public abstract class RecurringJobsContract extends BrokerFixture {
    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00.500Z");
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    @Test
    public final void two_brokers_on_one_database_publish_one_row_per_instant_of_a_schedule_every_second() {
        Jobs t = keyedTable();
        RoleBinding<Record> b = bind(t);
        clock.set(T0);
        Schedule everySecond = Schedule.cron("tick", "* * * * * *", ZoneOffset.UTC);
        QueueBroker one = scheduling(b, everySecond);
        QueueBroker two = scheduling(b, everySecond);
        one.start();
        two.start();

        List<String> expected = new ArrayList<>();
        for (int i = 1; i <= 30; i++) {
            clock.advance(Duration.ofSeconds(1));
            String key = "tick@" + at(i);
            expected.add(key);
            awaitCount(t, "note = '" + key + "'", 1);
        }
        Instant lastInstant = Instant.parse(at(30));
        // each broker reached the last instant: both published through the key, and neither wrote a second row
        await().atMost(PATIENCE).until(() -> lastOf(one).equals(lastInstant) && lastOf(two).equals(lastInstant));

        assertThat(notes(t)).isEqualTo(expected);
        assertThat(count(t, "1 = 1")).isEqualTo(30);
        assertThat(QueueAdmin.of(one).schedules()).singleElement().satisfies(s -> {
            assertThat(s.name()).isEqualTo("tick");
            assertThat(s.table()).isEqualTo(t.getName());
            assertThat(s.lastInstant()).contains(lastInstant);
            assertThat(s.nextInstant()).contains(lastInstant.plusSeconds(1));
        });
    }

    @Test
    public final void a_service_stopped_across_three_instants_runs_the_latest_once_when_it_starts_again() {
        Jobs t = keyedTable();
        RoleBinding<Record> b = bind(t);
        runThreeInstantsThenStop(t, b, Schedule.every("tick", Duration.ofSeconds(1)));
        clock.advance(Duration.ofSeconds(3)); // 4, 5 and 6 come due while no broker runs

        QueueBroker again = scheduling(b, Schedule.every("tick", Duration.ofSeconds(1)));
        assertThat(again.schedules()).singleElement().satisfies(s -> assertThat(s.lastInstant()).isEmpty());
        again.start();
        assertThat(again.schedules().get(0).lastInstant()).contains(Instant.parse(at(3)));
        awaitCount(t, "note = 'tick@" + at(6) + "'", 1);
        clock.advance(Duration.ofSeconds(1));
        awaitCount(t, "note = 'tick@" + at(7) + "'", 1);

        assertThat(notes(t)).containsExactly("tick@" + at(1), "tick@" + at(2), "tick@" + at(3), "tick@" + at(6),
                "tick@" + at(7));
    }

    @Test
    public final void a_service_stopped_across_three_instants_skips_them_when_its_schedule_says_so() {
        Jobs t = keyedTable();
        RoleBinding<Record> b = bind(t);
        Schedule skipping = Schedule.every("tick", Duration.ofSeconds(1)).skipMissed();
        runThreeInstantsThenStop(t, b, skipping);
        clock.advance(Duration.ofSeconds(3));

        QueueBroker again = scheduling(b, skipping);
        again.start();
        // the cursor is the start: the first instant it publishes is the first after it
        ScheduleState started = again.schedules().get(0);
        assertThat(started.lastInstant()).contains(Instant.parse(at(3)));
        assertThat(started.nextInstant()).contains(Instant.parse(at(7)));
        clock.advance(Duration.ofSeconds(1));
        awaitCount(t, "note = 'tick@" + at(7) + "'", 1);

        assertThat(notes(t)).containsExactly("tick@" + at(1), "tick@" + at(2), "tick@" + at(3), "tick@" + at(7));
    }

    @Test
    public final void a_changed_schedule_takes_effect_from_its_next_instant_after_the_newest_row() {
        Jobs t = keyedTable();
        RoleBinding<Record> b = bind(t);
        runThreeInstantsThenStop(t, b, Schedule.every("tick", Duration.ofSeconds(1)));

        // redeployed every 5 s: its instants are the multiples of 5 s, and 00:00:00 is older than the newest row
        QueueBroker changed = scheduling(b, Schedule.every("tick", Duration.ofSeconds(5)));
        changed.start();
        assertThat(changed.schedules().get(0).nextInstant()).contains(Instant.parse(at(5)));
        clock.advance(Duration.ofSeconds(2));
        awaitCount(t, "note = 'tick@" + at(5) + "'", 1);

        assertThat(notes(t)).containsExactly("tick@" + at(1), "tick@" + at(2), "tick@" + at(3), "tick@" + at(5));
    }

    @Test
    public final void a_daily_wall_time_in_the_spring_gap_is_published_once_at_the_shifted_instant() {
        Jobs t = keyedTable();
        RoleBinding<Record> b = bind(t);
        clock.set(Instant.parse("2027-03-27T12:00:00Z"));
        QueueBroker broker = scheduling(b, Schedule.cron("report", "0 30 2 * * *", BERLIN));
        broker.start();

        // 2027-03-28: 02:00 CET becomes 03:00 CEST; 02:30 is run at 03:30 CEST (01:30Z)
        clock.set(Instant.parse("2027-03-28T01:00:30Z"));
        assertThat(broker.schedules().get(0).nextInstant()).contains(Instant.parse("2027-03-28T01:30:00Z"));
        clock.set(Instant.parse("2027-03-28T01:30:30Z"));
        awaitCount(t, "note = 'report@2027-03-28T01:30:00Z'", 1);
        clock.set(Instant.parse("2027-03-29T00:30:30Z"));
        awaitCount(t, "note = 'report@2027-03-29T00:30:00Z'", 1);

        assertThat(notes(t)).containsExactly("report@2027-03-28T01:30:00Z", "report@2027-03-29T00:30:00Z");
    }

    @Test
    public final void a_daily_wall_time_in_the_autumn_overlap_is_published_once() {
        Jobs t = keyedTable();
        RoleBinding<Record> b = bind(t);
        clock.set(Instant.parse("2026-10-24T12:00:00Z"));
        QueueBroker broker = scheduling(b, Schedule.cron("report", "0 30 2 * * *", BERLIN));
        broker.start();

        // 2026-10-25: 03:00 CEST becomes 02:00 CET, so 02:30 comes twice: 00:30Z, then 01:30Z
        clock.set(Instant.parse("2026-10-25T00:30:30Z"));
        awaitCount(t, "note = 'report@2026-10-25T00:30:00Z'", 1);
        clock.set(Instant.parse("2026-10-25T01:30:30Z"));
        // the broker has dealt with everything due by now once its next instant is later than now
        await().atMost(PATIENCE).until(() -> broker.schedules().get(0).nextInstant().orElseThrow()
                .isAfter(clock.instant()));
        assertThat(broker.schedules().get(0).nextInstant()).contains(Instant.parse("2026-10-26T01:30:00Z"));
        assertThat(notes(t)).containsExactly("report@2026-10-25T00:30:00Z");
        clock.set(Instant.parse("2026-10-26T01:30:30Z"));
        awaitCount(t, "note = 'report@2026-10-26T01:30:00Z'", 1);

        assertThat(notes(t)).containsExactly("report@2026-10-25T00:30:00Z", "report@2026-10-26T01:30:00Z");
    }

    @Test
    public final void the_start_refuses_a_table_that_cannot_keep_an_instant_to_one_row() {
        Schedule tick = Schedule.every("tick", Duration.ofSeconds(1));

        Jobs noKey = keyedTable();
        assertThatThrownBy(scheduling(Jobs.payloadRoles(noKey).build(), tick)::start)
                .isInstanceOf(DeclarationException.class).hasMessageContaining("table \"" + noKey.getName() + "\"")
                .hasMessageContaining("\"tick\"").hasMessageContaining("no unique key");

        Jobs pending = keyedTable();
        assertThatThrownBy(scheduling(Jobs.payloadRoles(pending).uniqueKeyWhilePending(pending.NOTE).build(), tick)
                ::start).isInstanceOf(DeclarationException.class)
                .hasMessageContaining("table \"" + pending.getName() + "\"").hasMessageContaining("\"tick\"")
                .hasMessageContaining("uniqueKeyWhilePending");

        Jobs deleting = keyedTable();
        RoleBinding<Record> deletes = RoleBinding.of(deleting, deleting.ID).group(deleting.GRP)
                .payload(deleting.PAYLOAD).uniqueKey(deleting.NOTE).build();
        assertThatThrownBy(scheduling(deletes, tick)::start).isInstanceOf(DeclarationException.class)
                .hasMessageContaining("table \"" + deleting.getName() + "\"").hasMessageContaining("\"tick\"")
                .hasMessageContaining("processedAt");

        Jobs noIndex = newTable();
        assertThatThrownBy(scheduling(bind(noIndex), tick)::start).isInstanceOf(SchemaException.class)
                .hasMessageContaining("table \"" + noIndex.getName() + "\"").hasMessageContaining("\"tick\"")
                .hasMessageContaining("unique index");

        assertThat(count(noKey, "1 = 1") + count(pending, "1 = 1") + count(deleting, "1 = 1")
                + count(noIndex, "1 = 1")).isZero();
    }

    /**
     * Retention leaves each schedule's newest row, however old: the broker finds its last instant there, and
     * without it a service started again would publish that instant a second time. Other acknowledged rows of the
     * table, keyed or not, go as usual.
     */
    @Test
    public final void retention_leaves_each_schedules_newest_row_so_a_restart_publishes_no_instant_again() {
        Jobs t = keyedTable();
        RoleBinding<Record> b = bind(t);
        clock.set(T0);
        Schedule tick = Schedule.every("tick", Duration.ofSeconds(1));
        Schedule tock = Schedule.every("tock", Duration.ofSeconds(1));
        QueueBroker first = scheduling(b, tick);
        first.schedule(tock, InboxQueue.of(b, "emails"), instant -> new Job(1, "tock"));
        first.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> Outcome.ack());
        first.start();
        for (int i = 1; i <= 3; i++) {
            clock.advance(Duration.ofSeconds(1));
            awaitCount(t, "note = 'tick@" + at(i) + "'", 1);
            awaitCount(t, "note = 'tock@" + at(i) + "'", 1);
        }
        publish(first, b, "emails", 2); // rows of no schedule
        awaitCount(t, "processed_at is not null", 8);
        first.close();

        QueueBroker later = scheduling(b, tick);
        later.schedule(tock, InboxQueue.of(b, "emails"), instant -> new Job(1, "tock"));
        clock.advance(Duration.ofDays(2));
        RetentionReport pass = QueueAdmin.of(later).runRetention(Retention.of(b).acknowledged(Duration.ofDays(1)));
        assertThat(pass.last().acknowledged()).isEqualTo(6);
        assertThat(notes(t)).containsExactly("tick@" + at(3), "tock@" + at(3));

        // started again with the skip rule, the newest rows are its cursor: nothing before them comes again
        QueueBroker again = broker();
        again.schedule(Schedule.every("tick", Duration.ofSeconds(1)).skipMissed(), InboxQueue.of(b, "emails"),
                instant -> new Job(1, "tick"));
        again.start();
        assertThat(again.schedules().get(0).lastInstant()).contains(Instant.parse(at(3)));
        assertThat(notes(t)).containsExactly("tick@" + at(3), "tock@" + at(3));
    }

    @Test
    public final void the_meters_read_each_schedules_last_and_next_instants_from_the_broker() {
        Jobs t = keyedTable();
        clock.set(T0);
        QueueBroker broker = scheduling(bind(t), Schedule.every("tick", Duration.ofSeconds(1)));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (TableQueueMetrics metrics = TableQueueMetrics.builder(registry).build().bind(broker)) {
            assertThat(gauge(registry, "tablequeue.schedule.last", t)).isNaN();
            assertThat(gauge(registry, "tablequeue.schedule.next", t)).isEqualTo(epoch(1));
            broker.start();
            clock.advance(Duration.ofSeconds(1));
            awaitCount(t, "note = 'tick@" + at(1) + "'", 1);

            await().atMost(PATIENCE).untilAsserted(() -> {
                assertThat(gauge(registry, "tablequeue.schedule.last", t)).isEqualTo(epoch(1));
                assertThat(gauge(registry, "tablequeue.schedule.next", t)).isEqualTo(epoch(2));
            });
        }
    }

    private static double gauge(SimpleMeterRegistry registry, String name, Jobs t) {
        return registry.get(name).tag("schedule", "tick").tag("table", t.getName()).tag("queue", "emails").gauge()
                .value();
    }

    private static double epoch(int seconds) {
        return Instant.parse(at(seconds)).getEpochSecond();
    }

    /** Publishes instants 1, 2 and 3 (seconds after T0) with {@code schedule} on a broker, then closes it. */
    private void runThreeInstantsThenStop(Jobs t, RoleBinding<Record> b, Schedule schedule) {
        clock.set(T0);
        QueueBroker first = scheduling(b, schedule);
        first.start();
        for (int i = 1; i <= 3; i++) {
            clock.advance(Duration.ofSeconds(1));
            awaitCount(t, "note = 'tick@" + at(i) + "'", 1);
        }
        first.close();
    }

    /** A broker (not started) that runs {@code schedule} into the "emails" queue of {@code b}'s table. */
    private QueueBroker scheduling(RoleBinding<Record> b, Schedule schedule) {
        QueueBroker broker = broker();
        Function<Instant, Object> payload = instant -> new Job((int) (instant.getEpochSecond() % 100_000), "tick");
        broker.schedule(schedule, InboxQueue.of(b, "emails"), payload);
        return broker;
    }

    private static Instant lastOf(QueueBroker broker) {
        return broker.schedules().get(0).lastInstant().orElse(Instant.MIN);
    }

    /** The instant {@code seconds} whole seconds after T0's, as keys write it. */
    private static String at(int seconds) {
        return T0.plusSeconds(seconds).toString().replace(".500Z", "Z");
    }

    private List<String> notes(Jobs t) {
        return dsl().select(t.NOTE).from(t).orderBy(t.ID).fetch(t.NOTE);
    }

    /** A binding of {@code t} in the database's preferred form, its unique key {@code note} over every row. */
    private RoleBinding<Record> bind(Jobs t) {
        RoleBinding.Builder<Record> b = Jobs.payloadRoles(t);
        if (preferredForm() == Form.LEASE) {
            b.lease(t.LOCKED_UNTIL);
        }
        return b.uniqueKey(t.NOTE).build();
    }

    /** A Jobs table with a unique index on {@code note}. */
    private Jobs keyedTable() {
        Jobs t = newTable();
        db.execute("CREATE UNIQUE INDEX " + t.getName() + "_note ON " + t.getName() + " (note)");
        return t;
    }
}
