package dev.tablequeue.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tablequeue.SchemaException;
import dev.tablequeue.TableQueueException;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.PublishResult;
import dev.tablequeue.broker.Publisher;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.contract.Jobs;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jooq.Record;
import org.jooq.TableField;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jooq.impl.TableImpl;
import org.junit.jupiter.api.Test;

/**
 * Unique jobs: a binding that names a unique key column ({@code uniqueKey(..)}, {@code uniqueKeyWhilePending(..)})
 * publishes a message whose key a row holds as nothing, and says so ({@code inserted() == false} with the holder's
 * id), in the caller's transaction; concurrent publishes of one key write one row; a conflict on another unique
 * constraint still fails; the start refuses a key without its unique index. The key is the Jobs table's
 * {@code note} column, with the index each database's adoption guide gives. Each database runs it through a
 * small subclass; the tests are final.
 */
public abstract class UniqueJobsContract extends BrokerFixture {
    private static final int PAIRS = 50;

    @Test
    public final void a_publish_of_a_key_a_row_holds_writes_nothing_and_returns_the_holders_id() {
        Jobs t = keyedTable(false);
        RoleBinding<Record> b = bind(t, false);
        Publisher p = broker(new BrokerListener() {}, s -> s.route("emails", b)).publisher();

        PublishResult first = p.publish(b, keyed(1, "order-7"));
        PublishResult again = p.publish(b, keyed(2, "order-7"));
        PublishResult routed = p.publish(keyed(3, "order-7"));
        PublishResult[] inTransaction = new PublishResult[1];
        dsl().transaction(tx -> inTransaction[0] = p.publish(tx.dsl(), b, keyed(4, "order-7")));
        PublishResult other = p.publish(b, keyed(5, "order-8"));

        assertThat(first.inserted()).isTrue();
        assertThat(first.id()).isInstanceOf(Long.class);
        for (PublishResult taken : List.of(again, routed, inTransaction[0])) {
            assertThat(taken.inserted()).isFalse();
            assertThat(taken.id()).isEqualTo(first.id());
            assertThat(taken.table()).isEqualTo(b.tableName());
            assertThat(taken).isEqualTo(PublishResult.keyTaken(b.tableName(), first.id()));
        }
        assertThat(other.inserted()).isTrue();
        assertThat(count(t, "note = 'order-7'")).isEqualTo(1);
        assertThat(count(t, "1 = 1")).isEqualTo(2);
    }

    @Test
    public final void a_publish_without_a_key_is_an_ordinary_insert() {
        Jobs t = keyedTable(false);
        RoleBinding<Record> b = bind(t, false);
        Publisher p = broker().publisher();

        List<PublishResult> results = List.of(p.publish(b, Message.of("emails", new Job(1, "no key"))),
                p.publish(b, Message.of("emails", new Job(2, "no key"))));

        assertThat(results).allSatisfy(r -> assertThat(r.inserted()).isTrue());
        assertThat(count(t, "note is null")).isEqualTo(2);
    }

    @Test
    public final void a_publish_in_a_transaction_that_rolls_back_leaves_the_key_free() {
        Jobs t = keyedTable(false);
        RoleBinding<Record> b = bind(t, false);
        Publisher p = broker().publisher();

        assertThatThrownBy(() -> dsl().transaction(tx -> {
            assertThat(p.publish(tx.dsl(), b, keyed(1, "order-7")).inserted()).isTrue();
            throw new IllegalStateException("the caller's work failed");
        })).hasMessageContaining("the caller's work failed");

        assertThat(count(t, "1 = 1")).isZero();
        assertThat(p.publish(b, keyed(2, "order-7")).inserted()).isTrue();
    }

    @Test
    public final void a_key_held_while_pending_is_free_again_once_its_row_is_acknowledged() {
        Jobs t = keyedTable(true);
        RoleBinding<Record> b = bind(t, true);
        var broker = broker();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> Outcome.ack());
        broker.start();
        Publisher p = broker.publisher();

        PublishResult first = p.publish(b, keyed(1, "order-7"));
        assertThat(first.inserted()).isTrue();
        awaitCount(t, "processed_at is not null", 1);
        PublishResult second = p.publish(b, keyed(2, "order-7"));
        awaitCount(t, "processed_at is not null", 2);
        broker.close();
        Publisher unsubscribed = broker().publisher();
        PublishResult pending = unsubscribed.publish(b, keyed(3, "order-7"));
        PublishResult taken = unsubscribed.publish(b, keyed(4, "order-7"));

        assertThat(second.inserted()).isTrue();
        assertThat(second.id()).isNotEqualTo(first.id());
        assertThat(pending.inserted()).isTrue();
        assertThat(taken).isEqualTo(PublishResult.keyTaken(b.tableName(), pending.id()));
        assertThat(count(t, "note = 'order-7'")).isEqualTo(3);
    }

    @Test
    public final void a_key_unique_over_every_row_stays_taken_after_its_row_is_acknowledged() {
        Jobs t = keyedTable(false);
        RoleBinding<Record> b = bind(t, false);
        var broker = broker();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).handle((job, d) -> Outcome.ack());
        broker.start();

        PublishResult first = broker.publisher().publish(b, keyed(1, "order-7"));
        awaitCount(t, "processed_at is not null", 1);

        assertThat(broker.publisher().publish(b, keyed(2, "order-7")))
                .isEqualTo(PublishResult.keyTaken(b.tableName(), first.id()));
    }

    @Test
    public final void two_transactions_publishing_one_key_at_once_write_one_row_and_neither_deadlocks()
            throws Exception {
        Jobs t = keyedTable(true);
        RoleBinding<Record> b = bind(t, true);
        Publisher p = broker().publisher();
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            for (int pair = 0; pair < PAIRS; pair++) {
                String key = "pair-" + pair;
                CyclicBarrier inTransactions = new CyclicBarrier(2);
                List<Future<PublishResult>> both = new ArrayList<>();
                for (int side = 0; side < 2; side++) {
                    int n = side;
                    both.add(threads.submit(() -> dsl().transactionResult(tx -> {
                        // both transactions are open before either publishes
                        inTransactions.await(30, TimeUnit.SECONDS);
                        return p.publish(tx.dsl(), b, keyed(n, key));
                    })));
                }
                PublishResult one = both.get(0).get(60, TimeUnit.SECONDS);
                PublishResult two = both.get(1).get(60, TimeUnit.SECONDS);
                assertThat(List.of(one.inserted(), two.inserted())).as("pair %d", pair)
                        .containsExactlyInAnyOrder(true, false);
                assertThat(one.id()).as("pair %d: both name the one row", pair).isEqualTo(two.id());
                assertThat(count(t, "note = '" + key + "'")).as("pair %d", pair).isEqualTo(1);
            }
        } finally {
            threads.shutdownNow();
        }
        assertThat(count(t, "1 = 1")).isEqualTo(PAIRS);
    }

    @Test
    public final void a_publish_behind_an_open_transaction_holding_its_key_follows_that_transactions_end()
            throws Exception {
        Jobs t = keyedTable(false);
        RoleBinding<Record> b = bind(t, false);
        Publisher p = broker().publisher();
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            for (int pair = 0; pair < 20; pair++) {
                String key = "order-" + pair;
                boolean firstCommits = pair % 2 == 0;
                CountDownLatch firstWrote = new CountDownLatch(1);
                CountDownLatch secondPublishing = new CountDownLatch(1);
                Future<PublishResult> first = threads.submit(() -> {
                    try {
                        return dsl().transactionResult(tx -> {
                            PublishResult r = p.publish(tx.dsl(), b, keyed(1, key));
                            firstWrote.countDown();
                            // the second publishes while this transaction holds the key (on PostgreSQL and MariaDB
                            // it waits for this end), or just after it ends: either way it follows the outcome
                            secondPublishing.await(30, TimeUnit.SECONDS);
                            if (!firstCommits) {
                                throw new RolledBack(r);
                            }
                            return r;
                        });
                    } catch (RolledBack e) {
                        return e.result;
                    }
                });
                assertThat(firstWrote.await(30, TimeUnit.SECONDS)).isTrue();
                Future<PublishResult> second = threads.submit(() -> dsl().transactionResult(tx -> {
                    secondPublishing.countDown();
                    return p.publish(tx.dsl(), b, keyed(2, key));
                }));
                PublishResult one = first.get(60, TimeUnit.SECONDS);
                PublishResult two = second.get(60, TimeUnit.SECONDS);
                assertThat(one.inserted()).isTrue();
                if (firstCommits) {
                    assertThat(two).as("pair %d", pair).isEqualTo(PublishResult.keyTaken(b.tableName(), one.id()));
                } else {
                    assertThat(two.inserted()).as("pair %d: the first rolled back", pair).isTrue();
                }
                assertThat(count(t, "note = '" + key + "'")).as("pair %d", pair).isEqualTo(1);
            }
        } finally {
            threads.shutdownNow();
        }
    }

    /** Rolls a test's transaction back, carrying what its publish returned. */
    private static final class RolledBack extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient PublishResult result;

        RolledBack(PublishResult result) {
            super("rolled back on purpose");
            this.result = result;
        }
    }

    @Test
    public final void a_batch_writes_each_key_once_within_and_across_batches() {
        Jobs t = keyedTable(false);
        RoleBinding<Record> b = bind(t, false);
        Publisher p = broker().publisher();

        List<PublishResult> first = p.publishAll(b, List.of(keyed(1, "a"), keyed(2, "b"), keyed(3, "a"),
                Message.of("emails", new Job(4, "no key"))));
        List<PublishResult>[] second = new List[1];
        dsl().transaction(tx -> second[0] = p.publishAll(tx.dsl(), b, List.of(keyed(5, "b"), keyed(6, "c"))));

        assertThat(first).extracting(PublishResult::inserted).containsExactly(true, true, false, true);
        assertThat(first.get(2).id()).isEqualTo(first.get(0).id());
        assertThat(second[0]).extracting(PublishResult::inserted).containsExactly(false, true);
        assertThat(second[0].get(0).id()).isEqualTo(first.get(1).id());
        assertThat(count(t, "1 = 1")).isEqualTo(4);
    }

    @Test
    public final void a_conflict_on_the_id_the_message_gives_is_not_silenced() {
        Given g = givenTable();
        RoleBinding<Record> b = RoleBinding.of(g, g.ID).group(g.GRP).payload(g.PAYLOAD).uniqueKey(g.NOTE)
                .advisory(g.getName() + "-{id}").build();
        Publisher p = broker().publisher();

        assertThat(p.publish(b, given(1, "a")).inserted()).isTrue();
        assertThatThrownBy(() -> p.publish(b, given(1, "b"))).isInstanceOf(TableQueueException.class)
                .hasMessageContaining(g.getName());
        assertThat(p.publish(b, given(2, "a"))).isEqualTo(PublishResult.keyTaken(b.tableName(), 1L));
        assertThat(dsl().select(g.ID, g.NOTE).from(g).fetch().intoMap(g.ID, g.NOTE)).containsExactly(
                java.util.Map.entry(1L, "a"));
    }

    @Test
    public final void the_start_refuses_a_unique_key_without_its_unique_index() {
        Jobs bare = newTable();
        RoleBinding<Record> b = bind(bare, false);
        var broker = broker(new BrokerListener() {}, s -> s.route("emails", b));
        assertThatThrownBy(broker::start).isInstanceOf(SchemaException.class)
                .hasMessageContaining("table \"" + b.tableName() + "\"").hasMessageContaining("\"note\"")
                .hasMessageContaining("unique index");

        Jobs everyRow = keyedTable(false);
        RoleBinding<Record> pending = bind(everyRow, true);
        var second = broker(new BrokerListener() {}, s -> s.route("emails", pending));
        assertThatThrownBy(second::start).isInstanceOf(SchemaException.class)
                .hasMessageContaining("table \"" + pending.tableName() + "\"").hasMessageContaining("\"note\"")
                .hasMessageContaining("acknowledged ones too");

        Jobs onPending = keyedTable(true);
        RoleBinding<Record> plain = bind(onPending, false);
        var third = broker(new BrokerListener() {}, s -> s.route("emails", plain));
        assertThatThrownBy(third::start).isInstanceOf(SchemaException.class)
                .hasMessageContaining("table \"" + plain.tableName() + "\"").hasMessageContaining("\"note\"");
    }

    @Test
    public final void a_publish_through_a_binding_the_start_never_saw_checks_the_index_first() {
        Jobs bare = newTable();
        RoleBinding<Record> b = bind(bare, false);
        Publisher p = broker().publisher();

        assertThatThrownBy(() -> p.publish(b, keyed(1, "order-7"))).isInstanceOf(SchemaException.class)
                .hasMessageContaining("table \"" + b.tableName() + "\"").hasMessageContaining("\"note\"");
        assertThat(count(bare, "1 = 1")).isZero();
    }

    /** A binding of {@code t} in the database's preferred form, its key {@code note} (held while pending or always). */
    private RoleBinding<Record> bind(Jobs t, boolean whilePending) {
        RoleBinding.Builder<Record> b = Jobs.payloadRoles(t);
        if (preferredForm() == dev.tablequeue.binding.Form.LEASE) {
            b.lease(t.LOCKED_UNTIL);
        }
        return (whilePending ? b.uniqueKeyWhilePending(t.NOTE) : b.uniqueKey(t.NOTE)).build();
    }

    private static Message keyed(int n, String key) {
        return Message.of("emails", new Job(n, "keyed")).set(DSL.field(DSL.name("note"), String.class), key);
    }

    private Message given(long id, String key) {
        return Message.of("emails", new Job((int) id, "given")).set(DSL.field(DSL.name("id"), Long.class), id)
                .set(DSL.field(DSL.name("note"), String.class), key);
    }

    /**
     * A Jobs table whose {@code note} is its unique key, with the index the adoption guide gives: over every row,
     * or over pending rows (a partial index; on MySQL and MariaDB a unique generated column).
     */
    private Jobs keyedTable(boolean whilePending) {
        Jobs t = newTable();
        String name = t.getName();
        if (!whilePending) {
            db.execute("CREATE UNIQUE INDEX " + name + "_note ON " + name + " (note)");
        } else if (engine() == Engine.MARIADB || engine() == Engine.MYSQL) {
            db.execute("ALTER TABLE " + name + " ADD COLUMN pending_note VARCHAR(100)"
                    + " AS (IF(processed_at IS NULL, note, NULL)) VIRTUAL, ADD UNIQUE INDEX " + name
                    + "_pending_note (pending_note)");
        } else {
            db.execute("CREATE UNIQUE INDEX " + name + "_note ON " + name + " (note) WHERE processed_at IS NULL");
        }
        return t;
    }

    /** A table whose id the message gives, with a unique key. */
    protected static final class Given extends TableImpl<Record> {
        private static final long serialVersionUID = 1L;
        final TableField<Record, Long> ID = createField(DSL.name("id"), SQLDataType.BIGINT.nullable(false), this, "");
        final TableField<Record, String> GRP = createField(DSL.name("grp"), SQLDataType.VARCHAR(100), this, "");
        final TableField<Record, byte[]> PAYLOAD = createField(DSL.name("payload"), SQLDataType.BLOB, this, "");
        final TableField<Record, String> NOTE = createField(DSL.name("note"), SQLDataType.VARCHAR(100), this, "");

        Given(String name) {
            super(DSL.name(name));
        }
    }

    private Given givenTable() {
        String name = "givenkey" + TABLES.incrementAndGet();
        String blob = switch (engine()) {
            case POSTGRES -> "BYTEA";
            case MARIADB, MYSQL -> "LONGBLOB";
            case SQLITE -> "BLOB";
        };
        db.execute("CREATE TABLE " + name + " (id BIGINT PRIMARY KEY, grp VARCHAR(100), payload " + blob
                + ", note VARCHAR(100))");
        db.execute("CREATE UNIQUE INDEX " + name + "_note ON " + name + " (note)");
        return new Given(name);
    }
}
