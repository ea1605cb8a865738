package dev.tablequeue.it;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.tablequeue.LeaseLostException;
import dev.tablequeue.TransactionHeldException;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.Isolation;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.binding.SqliteMode;
import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.FailurePolicy;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.Mount;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.contract.Jobs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Transactional mode ({@code transactional()}, {@code delivery.tx()}) in every form the database takes: what
 * the handler writes through the delivery's transaction commits with its acknowledgement and with nothing
 * else, a second connection never sees the one without the other, and what the mode cannot carry is refused.
 *
 * <p>The handlers write into an effects table of the test's own ({@code n}, {@code attempt}).
 */
public abstract class TransactionalContract extends BrokerFixture {
    private static final Field<Integer> N = DSL.field(DSL.name("n"), Integer.class);
    private static final Field<Integer> ATTEMPT = DSL.field(DSL.name("attempt"), Integer.class);

    /** A fresh effects table. */
    private Table<Record> effects() {
        String name = "effects" + TABLES.incrementAndGet();
        db.execute("CREATE TABLE " + name + " (n INT NOT NULL, attempt INT NOT NULL)");
        return DSL.table(DSL.name(name));
    }

    private List<String> effectsIn(Table<Record> effects) {
        return dsl().select(N, ATTEMPT).from(effects).orderBy(N, ATTEMPT).fetch(r -> r.value1() + "@" + r.value2());
    }

    private static void write(DSLContext ctx, Table<Record> effects, Job job, Delivery d) {
        ctx.insertInto(effects, N, ATTEMPT).values(job.n(), d.attempt().orElse(0)).execute();
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void an_acknowledgement_commits_the_handlers_writes_with_its_row_and_never_one_without_the_other(
            Form form) throws Exception {
        Queue q = queue(form);
        Table<Record> effects = effects();
        q.emails().transactional().workers(3).handle((job, d) -> {
            write(d.tx(), effects, job, d);
            return Outcome.ack();
        });
        // a second connection reads both counts in one statement, over and over, while the jobs are handled
        String both = "SELECT (SELECT COUNT(*) FROM " + effects.getName() + ") - (SELECT COUNT(*) FROM "
                + q.t.getName() + " WHERE processed_at IS NOT NULL)";
        AtomicBoolean done = new AtomicBoolean();
        List<Long> apart = new CopyOnWriteArrayList<>();
        AtomicInteger reads = new AtomicInteger();
        CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> {
            while (!done.get()) {
                long difference = ((Number) dsl().fetchValue(both)).longValue();
                reads.incrementAndGet();
                if (difference != 0) {
                    apart.add(difference);
                }
            }
        });
        q.start().publish(30);
        q.awaitProcessed(30);
        done.set(true);
        reader.get(30, SECONDS);
        assertThat(effectsIn(effects)).hasSize(30).doesNotHaveDuplicates();
        assertThat(reads.get()).isPositive();
        assertThat(apart).isEmpty();
    }

    /**
     * Many transactional workers each wait their turn to open their transaction, however busy the database: on
     * SQLite, which takes one writer at a time, every opening waits for the write lock, and none may fail for
     * it. The handlers let their thread go while they hold their transaction (as one that calls out does), and
     * the workers outnumber the processors, so the openings waiting can outnumber the threads that carry them.
     * Each row is claimed once and handled once: a delivery whose transaction did not open is claimed and never
     * handled.
     */
    @ParameterizedTest
    @MethodSource("forms")
    public final void many_transactional_workers_each_open_their_transaction_however_busy_the_database(Form form) {
        int workers = Math.max(8, Runtime.getRuntime().availableProcessors() + 2);
        int jobs = 300;
        AtomicInteger claimed = new AtomicInteger();
        AtomicInteger handled = new AtomicInteger();
        List<Throwable> claimFailures = new CopyOnWriteArrayList<>();
        Queue q = queue(t -> binding(t, form), new BrokerListener() {
            @Override
            public void claimed(InboxQueue<?> queue, int rows, Duration took) {
                claimed.addAndGet(rows);
            }

            @Override
            public void handled(Delivery delivery, Outcome outcome, Duration took) {
                handled.incrementAndGet();
            }

            @Override
            public void claimFailed(InboxQueue<?> queue, Throwable failure) {
                claimFailures.add(failure);
            }
        });
        Table<Record> effects = effects();
        insertMany(q.t, "emails", jobs);
        q.emails().transactional().workers(workers).handle((job, d) -> {
            write(d.tx(), effects, job, d);
            Thread.yield();
            return Outcome.ack();
        });
        q.start();
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(q.count("processed_at is not null"))
                .as("rows processed, with %d claimed and %d handled", claimed.get(), handled.get())
                .isEqualTo(jobs));
        assertThat(handled).as("deliveries handled").hasValue(jobs);
        assertThat(claimed).as("rows claimed").hasValue(jobs);
        assertThat(claimFailures).isEmpty();
        assertThat(effectsIn(effects)).hasSize(jobs).doesNotHaveDuplicates();
    }

    static Stream<Arguments> outcomesThatRollBack(List<Form> forms) {
        List<Arguments> all = new ArrayList<>();
        for (Form form : forms) {
            for (String outcome : List.of("retry", "retryAfter", "drop", "deadLetter", "exception", "policyAck")) {
                all.add(Arguments.of(form, outcome));
            }
        }
        return all.stream();
    }

    protected final Stream<Arguments> everyOtherOutcome() {
        return outcomesThatRollBack(new ArrayList<>(forms()));
    }

    /**
     * A retry, a delayed retry, a drop, a dead letter, a thrown exception, and a failure policy's
     * acknowledgement of a thrown exception leave none of the handler's writes; a retried row's next delivery
     * (which acknowledges) keeps its own, and reads the attempt the first one counted.
     */
    @ParameterizedTest
    @MethodSource("everyOtherOutcome")
    public final void every_other_outcome_rolls_the_handlers_writes_back_first(Form form, String outcome) {
        Map<Outcome, Integer> settled = new ConcurrentHashMap<>();
        Queue q = queue(form, new BrokerListener() {
            @Override
            public void settled(Delivery delivery, Outcome o) {
                settled.merge(o, 1, Integer::sum);
            }
        });
        Table<Record> effects = effects();
        Mount<Job> mount = q.emails().transactional();
        switch (outcome) {
            case "deadLetter" -> mount.maxAttempts(5).deadLetter("dead");
            case "exception" -> mount.onHandlerFailure(FailurePolicy.retry());
            case "policyAck" -> mount.onHandlerFailure((d, failure) -> Outcome.ack());
            default -> { }
        }
        mount.handle((job, d) -> {
            write(d.tx(), effects, job, d);
            if (d.attempt().orElseThrow() > 1) {
                return Outcome.ack();
            }
            return switch (outcome) {
                case "retry" -> Outcome.retry();
                case "retryAfter" -> Outcome.retryAfter(Duration.ofMinutes(1));
                case "drop" -> Outcome.drop();
                case "deadLetter" -> Outcome.deadLetter();
                default -> throw new IllegalStateException("the handler fails after its write");
            };
        });
        q.start().publish(1);
        switch (outcome) {
            case "drop", "policyAck" -> {
                q.awaitProcessed(1);
                assertThat(effectsIn(effects)).isEmpty();
            }
            case "deadLetter" -> {
                awaitCount(q.t, "grp = 'dead'", 1);
                assertThat(effectsIn(effects)).isEmpty();
            }
            default -> {
                if (outcome.equals("retryAfter")) {
                    await().atMost(PATIENCE).until(() -> settled.containsKey(Outcome.retryAfter(Duration.ofMinutes(1))));
                    assertThat(effectsIn(effects)).isEmpty();
                    clock.advance(Duration.ofMinutes(2));
                }
                q.awaitProcessed(1);
                assertThat(effectsIn(effects)).containsExactly("0@2");
            }
        }
    }

    /**
     * On SQLite the delivery's transaction holds the database's write lock from its start in the default
     * mode (immediate), so a write through db() waits for it; a deferred table lets a handler write through
     * db() before its first write through tx().
     */
    @ParameterizedTest
    @MethodSource("forms")
    public final void a_write_through_db_commits_on_its_own_whatever_the_outcome(Form form) {
        Queue q = engine() != Engine.SQLITE ? queue(form)
                : queue(t -> inForm(RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT).retryAfter(t.RETRY_AFTER)
                        .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).sqliteMode(SqliteMode.DEFERRED), t, form));
        Table<Record> effects = effects();
        q.emails().transactional().handle((job, d) -> {
            write(d.db(), effects, job, d);
            d.tx().insertInto(effects, N, ATTEMPT).values(job.n(), 100).execute();
            return Outcome.drop();
        });
        q.start().publish(1);
        q.awaitProcessed(1);
        assertThat(effectsIn(effects)).containsExactly("0@1");
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void a_publish_through_tx_commits_with_the_acknowledgement_only(Form form) {
        Queue q = queue(form);
        q.emails().transactional().handle((job, d) -> {
            q.broker.publisher().publish(d.tx(), q.b, Message.of("followups", new Job(job.n(), "followup")));
            return d.attempt().orElseThrow() == 1 ? Outcome.retry() : Outcome.ack();
        });
        q.start().publish(1);
        q.awaitProcessed(1);
        assertThat(q.count("grp = 'followups'")).isEqualTo(1);
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void a_handler_writes_its_own_claimed_row_through_tx(Form form) {
        Queue q = queue(form);
        q.emails().transactional().handle((job, d) -> {
            d.tx().update(q.t).set(q.t.NOTE, "written by job " + job.n()).where(q.t.ID.eq(d.id(q.t.ID))).execute();
            return Outcome.ack();
        });
        q.start().publish(3);
        q.awaitProcessed(3);
        assertThat(q.count("note like 'written by job %'")).isEqualTo(3);
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void a_jooq_transaction_inside_tx_is_a_savepoint(Form form) {
        Queue q = queue(form);
        Table<Record> effects = effects();
        q.emails().transactional().handle((job, d) -> {
            write(d.tx(), effects, job, d);
            try {
                d.tx().transaction(inner -> {
                    DSL.using(inner).insertInto(effects, N, ATTEMPT).values(job.n(), 99).execute();
                    throw new IllegalStateException("the inner transaction fails");
                });
            } catch (IllegalStateException expected) {
                // its insert is rolled back to the savepoint; the handler's first write stays
            }
            d.tx().transaction(inner -> DSL.using(inner).insertInto(effects, N, ATTEMPT).values(job.n(), 7).execute());
            return Outcome.ack();
        });
        q.start().publish(1);
        q.awaitProcessed(1);
        assertThat(effectsIn(effects)).containsExactly("0@1", "0@7");
    }

    @ParameterizedTest
    @MethodSource("forms")
    public final void a_tx_kept_past_its_handler_fails_and_commits_nothing(Form form) {
        Queue q = queue(form);
        Table<Record> effects = effects();
        AtomicReference<DSLContext> kept = new AtomicReference<>();
        q.emails().transactional().handle((job, d) -> {
            kept.set(d.tx());
            return Outcome.ack();
        });
        q.start().publish(1);
        q.awaitProcessed(1);
        assertThatThrownBy(() -> kept.get().insertInto(effects, N, ATTEMPT).values(1, 1).execute())
                .satisfies(e -> assertThat(causes(e)).anyMatch(TransactionHeldException.class::isInstance));
        assertThat(effectsIn(effects)).isEmpty();
    }

    /**
     * A handler that returns while a statement it started on another thread still runs on its transaction:
     * its writes are rolled back and the delivery settles as failed (here retried, and the second delivery
     * writes nothing of its own).
     */
    @ParameterizedTest
    @MethodSource("forms")
    public final void a_handler_that_returns_while_its_statement_runs_has_its_writes_rolled_back(Form form)
            throws Exception {
        Queue q = queue(form);
        Table<Record> effects = effects();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch returned = new CountDownLatch(1);
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        List<Throwable> background = new CopyOnWriteArrayList<>();
        q.emails().transactional().onHandlerFailure(FailurePolicy.retry()).handle((job, d) -> {
            attempts.add(d.attempt().orElseThrow());
            if (d.attempt().orElseThrow() > 1) {
                return Outcome.ack();
            }
            DSLContext tx = d.tx();
            Thread handler = Thread.currentThread();
            Thread.ofVirtual().start(() -> {
                try {
                    // the statement holds the transaction until the handler has returned and waits for it
                    tx.connection(c -> {
                        started.countDown();
                        returned.await();
                        await().atMost(PATIENCE).until(() -> handler.getState() == Thread.State.WAITING);
                        tx.insertInto(effects, N, ATTEMPT).values(job.n(), 1).execute();
                    });
                } catch (RuntimeException e) {
                    background.add(e);
                }
            });
            started.await();
            returned.countDown();
            return Outcome.ack();
        });
        q.start().publish(1);
        q.awaitProcessed(1);
        await().atMost(PATIENCE).until(() -> !background.isEmpty());
        assertThat(effectsIn(effects)).isEmpty();
        // the first delivery settled as a failure, retried: the second acknowledged
        assertThat(attempts).containsExactly(1, 2);
        assertThat(background).singleElement().satisfies(e -> assertThat(causes(e))
                .anyMatch(TransactionHeldException.class::isInstance));
    }

    /**
     * Row lock form: a handler that writes its own claimed row through db() (a connection of its own) waits for
     * its claim's lock; the wait is bounded, and the error says to write through tx(). SQLite has no row lock
     * form, and refuses it.
     */
    @Test
    public final void a_write_of_its_own_row_through_db_in_the_row_lock_form_fails_after_a_bounded_wait() {
        Queue q = queue(Form.ROW_LOCK, settings -> settings.ownRowWait(Duration.ofSeconds(1)));
        List<String> failures = new CopyOnWriteArrayList<>();
        q.emails().handle((job, d) -> {
            try {
                d.db().update(q.t).set(q.t.NOTE, "through db()").where(q.t.ID.eq(d.id(q.t.ID))).execute();
            } catch (RuntimeException e) {
                failures.add(e.getMessage());
            }
            // a statement on another table through db() takes no bound and commits on its own
            d.db().fetchOne("SELECT 1");
            return Outcome.ack();
        });
        if (!startsOrIsRefused(q.broker, Form.ROW_LOCK)) {
            return;
        }
        q.publish(1).awaitProcessed(1);
        assertThat(failures).singleElement().asString().contains("delivery.tx()").contains(q.t.getName())
                .contains("row lock");
        assertThat(q.count("note = 'through db()'")).isZero();
    }

    @Test
    public final void tx_without_transactional_names_the_step() {
        Queue q = queue(preferredForm());
        List<String> failures = new CopyOnWriteArrayList<>();
        q.emails().handle((job, d) -> {
            try {
                d.tx();
            } catch (IllegalStateException e) {
                failures.add(e.getMessage());
            }
            return Outcome.ack();
        });
        q.start().publish(1);
        q.awaitProcessed(1);
        assertThat(failures).singleElement().asString().contains("transactional()").contains(q.t.getName());
    }

    /**
     * Lease form: where another claim took the row meanwhile (its lease moved), the acknowledgement fails with
     * {@link LeaseLostException} and the handler's writes roll back with it.
     */
    @Test
    public final void a_lost_lease_rolls_the_handlers_writes_back() throws Exception {
        Map<Object, Throwable> failures = new ConcurrentHashMap<>();
        Queue q = queue(t -> {
            RoleBinding.Builder<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT)
                    .retryAfter(t.RETRY_AFTER).processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).lease(t.LOCKED_UNTIL);
            // SQLite: a deferred transaction takes the write lock at its first write, after the lease moved
            return engine() == Engine.SQLITE ? b.sqliteMode(SqliteMode.DEFERRED).build() : b.build();
        }, settlementFailuresInto(failures));
        Table<Record> effects = effects();
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch moved = new CountDownLatch(1);
        q.emails().transactional().handle((job, d) -> {
            holding.countDown();
            moved.await();
            write(d.tx(), effects, job, d);
            return Outcome.ack();
        });
        q.start().publish(1);
        assertThat(holding.await(30, SECONDS)).isTrue();
        // the lease runs out (the host clock moves past it), and another broker claims the row
        clock.advance(Duration.ofMinutes(5));
        List<Integer> secondAttempts = new CopyOnWriteArrayList<>();
        QueueBroker second = broker();
        second.subscribe(InboxQueue.of(q.b, "emails")).payload(Job.class).handle((job, d) -> {
            secondAttempts.add(d.attempt().orElseThrow());
            return Outcome.retryAfter(Duration.ofHours(1));
        });
        second.start();
        await().atMost(PATIENCE).until(() -> secondAttempts.size() == 1);
        moved.countDown();
        await().atMost(PATIENCE).until(() -> !failures.isEmpty());
        assertThat(failures.values()).singleElement().isInstanceOf(LeaseLostException.class);
        assertThat(effectsIn(effects)).isEmpty();
        assertThat(q.count("processed_at is null")).isEqualTo(1);
    }

    /**
     * Lease form: the keeper extends the leases of transactional deliveries whose handlers outlive half the
     * lease without holding back their settlement (on SQLite, whose transaction keeps every other writer out,
     * it leaves them alone): each is acknowledged on its first attempt, with its write.
     */
    @Test
    public final void handlers_that_outlive_half_the_lease_settle_on_their_first_attempt() {
        Map<Object, Throwable> failures = new ConcurrentHashMap<>();
        Queue q = queue(t -> binding(t, Form.LEASE), settlementFailuresInto(failures));
        QueueBroker broker = broker(new BrokerListener() {}, settings -> settings.lease(Duration.ofSeconds(2)));
        Table<Record> effects = effects();
        // SQLite runs one delivery's transaction at a time: a second worker's delivery would wait for the first
        // one's, unextended only where it holds the database, and with it the lease it waits out
        int workers = engine() == Engine.SQLITE ? 1 : 2;
        broker.subscribe(InboxQueue.of(q.b, "emails")).payload(Job.class).transactional().workers(workers)
                .handle((job, d) -> {
                    write(d.tx(), effects, job, d);
                    // the handler's own work, past the keeper's run at half the lease
                    Thread.sleep(1_500);
                    return Outcome.ack();
                });
        broker.start();
        publish(broker, q.b, "emails", 4);
        q.awaitProcessed(4);
        assertThat(effectsIn(effects)).containsExactlyInAnyOrder("0@1", "1@1", "2@1", "3@1");
        assertThat(failures).isEmpty();
    }

    /**
     * Postgres refuses the lease form at REPEATABLE READ (the acknowledgement would fail with a serialization
     * error after an extension); MariaDB and MySQL run it, and SQLite runs its deferred mode.
     */
    @Test
    public final void the_lease_form_at_a_stricter_level_is_refused_where_the_database_cannot_keep_it() {
        Jobs t = newTable();
        RoleBinding.Builder<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).lease(t.LOCKED_UNTIL);
        switch (engine()) {
            case POSTGRES -> {
                assertRefused(b.isolation(Isolation.REPEATABLE_READ).build(), s -> s.payload(Job.class)
                        .transactional(), "READ COMMITTED");
                return;
            }
            case SQLITE -> b.sqliteMode(SqliteMode.DEFERRED);
            default -> b.isolation(Isolation.REPEATABLE_READ);
        }
        RoleBinding<Record> binding = b.build();
        Table<Record> effects = effects();
        QueueBroker broker = broker();
        broker.subscribe(InboxQueue.of(binding, "emails")).payload(Job.class).transactional().handle((job, d) -> {
            write(d.tx(), effects, job, d);
            return Outcome.ack();
        });
        broker.start();
        publish(broker, binding, "emails", 3);
        awaitCount(t, "processed_at is not null", 3);
        assertThat(effectsIn(effects)).hasSize(3);
    }

    /**
     * A JVM killed while its handler holds the delivery's transaction commits none of the handler's writes,
     * and the row returns by its form's rule.
     */
    @ParameterizedTest
    @MethodSource("forms")
    public final void a_jvm_killed_mid_handler_commits_nothing(Form form) throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        Table<Record> effects = effects();
        publish(broker(), b, "emails", 1);
        DyingService.killWhileHolding(db.url(), t.getName(), form.name(), timeTypeName(), effects.getName());
        assertThat(effectsIn(effects)).isEmpty();
        if (form == Form.LEASE) {
            clock.advance(Duration.ofMinutes(1));
        }
        QueueBroker survivor = broker();
        survivor.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).transactional().handle((job, d) -> {
            write(d.tx(), effects, job, d);
            return Outcome.ack();
        });
        survivor.start();
        awaitCount(t, "processed_at is not null", 1);
        // a row lock claim counts nothing, and the rollback returns the row; a lease or a take spent an attempt
        assertThat(effectsIn(effects)).containsExactly(form == Form.ROW_LOCK ? "0@1" : "0@2");
    }

    private static List<Throwable> causes(Throwable e) {
        List<Throwable> chain = new ArrayList<>();
        for (Throwable c = e; c != null && !chain.contains(c); c = c.getCause()) {
            chain.add(c);
        }
        return chain;
    }
}
