package dev.tablequeue.test.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.ClaimShape;
import dev.tablequeue.dialect.ProcessKeys;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.ClaimSequence;
import dev.tablequeue.test.FreshDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.Record;
import org.junit.jupiter.api.Test;

/**
 * The advisory form: keys locked, passed over while held elsewhere and released; a key part of a null
 * column; a key held in another database; and a key and its row taken, and settled and released, in one
 * statement where the dialect has one.
 *
 * <p>Part of the dialect contract: what every dialect's statements do on its real server. A dialect proves
 * itself by a small subclass of each part that names its {@link ContractDatabase}; the tests are final, so no
 * subclass drops one. A form or a level the dialect does not serve is asserted to be refused.
 */
public abstract class DialectAdvisoryContract extends DialectFixture {

    // ---------------------------------------------------------------- advisory locks

    @Test
    public final void advisory_locks_lock_pass_over_held_keys_and_release() throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> b = payloadBinding(t, Form.ADVISORY).advisory("q-{id}").build();
        long first = insert(t, r -> r.group("a").priority(1));
        long second = insert(t, r -> r.group("a").priority(2));
        ClaimSequence<Map<String, Object>> steps = steps(b, "a");
        try (Connection holder = db.connect(); Connection other = db.connect()) {
            List<ClaimSequence.Candidate> candidates = steps.candidates(holder, 10);
            assertThat(candidateIds(candidates)).containsExactly(first, second);
            assertThat(candidates.get(0).key()).isEqualTo("q-" + first);

            Optional<Statement> lock = dialect.advisoryLock(b);
            Optional<Statement> unlock = dialect.advisoryUnlock(b);
            // the session takes the keys, or the process does (SQLite): one of the two, never both
            boolean inProcess = dialect.processKeys(holder).isPresent();
            assertThat(lock.isPresent()).isNotEqualTo(inProcess);
            assertThat(unlock.isPresent()).isNotEqualTo(inProcess);
            if (lock.isPresent()) {
                Binds key = new Binds().key("q-" + first);
                assertThat(answer(holder, lock.get(), key)).isTrue();
                // another session passes over the held key, and cannot take it
                assertThat(candidateIds(steps.candidates(other, 10))).containsExactly(second);
                assertThat(answer(other, lock.get(), key)).isFalse();
                assertThat(answer(other, unlock.get(), key)).isFalse();
            }

            List<Map<String, Object>> taken = take(holder, b, first);
            assertThat(ids(taken)).containsExactly(first);
            assertThat(number(taken.get(0), "attempt")).isEqualTo(1L);
            assertThat(number(stored(t, first), "attempt")).isEqualTo(2L);

            // a row settled by its holder is no longer taken
            assertThat(update(holder, dialect.ack(b), new Binds().id(first).now(now))).isEqualTo(1);
            assertThat(take(other, b, first)).isEmpty();

            if (lock.isPresent()) {
                Binds key = new Binds().key("q-" + first);
                assertThat(answer(holder, unlock.get(), key)).isTrue();
                assertThat(answer(other, lock.get(), key)).isTrue();
                assertThat(answer(other, unlock.get(), key)).isTrue();
            }
        }
    }

    @Test
    public final void a_key_part_whose_column_is_null_reads_as_empty_text_and_can_be_locked() throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> b = payloadBinding(t, Form.ADVISORY).advisory("n-{note}").build();
        long unnoted = insert(t, r -> r.group("a").priority(1));
        long noted = insert(t, r -> r.group("a").priority(2).note("x"));
        try (Connection c = db.connect()) {
            List<ClaimSequence.Candidate> candidates = steps(b, "a").candidates(c, 10);
            assertThat(candidateIds(candidates)).containsExactly(unnoted, noted);
            assertThat(candidates).extracting(ClaimSequence.Candidate::key).containsExactly("n-", "n-x");
            if (dialect.advisoryLock(b).isPresent()) {
                Binds key = new Binds().key("n-");
                assertThat(answer(c, dialect.advisoryLock(b).get(), key)).isTrue();
                assertThat(answer(c, dialect.advisoryUnlock(b).get(), key)).isTrue();
            }
        }
    }

    @Test
    public final void a_key_held_in_another_database_of_the_server_does_not_hold_back_its_candidate()
            throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> b = payloadBinding(t, Form.ADVISORY).advisory("q-{id}").build();
        long id = insert(t, r -> r.group("a"));
        Binds key = new Binds().key("q-" + id);
        try (FreshDatabase other = database().open(getClass().getSimpleName() + "_other");
                Connection there = other.connect(); Connection here = db.connect()) {
            // the same key, taken as the dialect takes it, by a session of another database
            Optional<ProcessKeys> keys = Optional.empty();
            if (dialect.advisoryLock(b).isPresent()) {
                assertThat(answer(there, dialect.advisoryLock(b).get(), key)).isTrue();
            } else {
                keys = dialect.processKeys(there);
                assertThat(keys).isPresent();
                assertThat(keys.get().tryTake("q-" + id)).isTrue();
            }
            try {
                assertThat(candidateIds(steps(b, "a").candidates(here, 10))).containsExactly(id);
                if (dialect.advisoryLock(b).isPresent()) {
                    assertThat(answer(here, dialect.advisoryLock(b).get(), key)).isTrue();
                    assertThat(answer(here, dialect.advisoryUnlock(b).get(), key)).isTrue();
                }
            } finally {
                keys.ifPresent(k -> k.release("q-" + id));
            }
        }
    }

    @Test
    public final void a_lock_and_take_holds_the_key_of_the_row_it_took_and_of_no_row_it_left() throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> counted = payloadBinding(t, Form.ADVISORY).advisory("q-{id}").build();
        assumeTrue(dialect.advisoryLockAndTake(counted, ClaimShape.ROLES).isPresent(),
                "the dialect takes a key and its row in one statement");
        for (RoleBinding<Record> b : List.of(counted, uncounted(t))) {
            boolean counts = b == counted;
            Statement lock = dialect.advisoryLock(b).orElseThrow();
            Statement unlock = dialect.advisoryUnlock(b).orElseThrow();
            long first = insert(t, r -> r.group("a").priority(1));
            long second = insert(t, r -> r.group("a").priority(2));
            ClaimSequence<Map<String, Object>> steps = steps(b, "a");
            ClaimSequence.Candidate one = new ClaimSequence.Candidate(first, "q-" + first);
            ClaimSequence.Candidate two = new ClaimSequence.Candidate(second, "q-" + second);
            try (Connection holder = db.connect(); Connection other = db.connect()) {
                assertThat(steps.locksAndTakes()).isTrue();
                List<Map<String, Object>> taken = steps.lockAndTake(holder, one);
                assertThat(ids(taken)).containsExactly(first);
                if (counts) {
                    assertThat(number(taken.get(0), "attempt")).isEqualTo(1L);
                    assertThat(number(stored(t, first), "attempt")).isEqualTo(2L);
                }
                // the key is the holder's: another session takes neither it nor the row, and holds nothing
                assertThat(answer(other, lock, new Binds().key(one.key()))).isFalse();
                assertThat(steps.lockAndTake(other, one)).isEmpty();
                assertThat(answer(other, unlock, new Binds().key(one.key()))).isFalse();

                // a row no longer claimable is left, and so is its key
                assertThat(update(holder, dialect.ack(b), new Binds().id(second).now(now))).isEqualTo(1);
                assertThat(steps.lockAndTake(other, two)).isEmpty();
                assertThat(answer(other, unlock, new Binds().key(two.key()))).isFalse();

                // the outcome and the release in one statement
                Statement ackAndUnlock = dialect.advisorySettleAndUnlock(b, dialect.ack(b)).orElseThrow();
                assertThat(answer(holder, ackAndUnlock, new Binds().id(first).now(now).key(one.key()))).isTrue();
                assertThat(stored(t, first).get("processed_at")).isNotNull();
                assertThat(answer(holder, unlock, new Binds().key(one.key()))).isFalse();
                assertThat(answer(other, lock, new Binds().key(one.key()))).isTrue();
                assertThat(answer(other, unlock, new Binds().key(one.key()))).isTrue();
            }
        }
    }

    /**
     * The outcome and the release in one statement keep the key until the outcome commits: while it has not,
     * another session cannot lock the key, and a take of the row takes nothing without waiting; once it has,
     * the key is free, the row settled, and the settling session holds nothing; where it rolls back, the key is
     * free and the row claimable as before.
     */
    @Test
    public final void an_outcome_and_unlock_keeps_the_key_until_the_outcome_commits() throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> b = payloadBinding(t, Form.ADVISORY).advisory("q-{id}").build();
        assumeTrue(dialect.advisorySettleAndUnlock(b, dialect.ack(b)).isPresent(),
                "the dialect writes an outcome and releases its key in one statement");
        assumeTrue(dialect.advisoryLockAndTake(b, ClaimShape.ROLES).isPresent(),
                "the dialect takes a key and its row in one statement");
        Statement ackAndUnlock = dialect.advisorySettleAndUnlock(b, dialect.ack(b)).orElseThrow();
        Statement lock = dialect.advisoryLock(b).orElseThrow();
        Statement unlock = dialect.advisoryUnlock(b).orElseThrow();
        long id = insert(t, r -> r.group("a"));
        ClaimSequence.Candidate row = new ClaimSequence.Candidate(id, "q-" + id);
        ClaimSequence<Map<String, Object>> steps = steps(b, "a");
        var taker = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor();
        try (Connection settler = db.connect(); Connection other = db.connect()) {
            for (boolean commit : new boolean[] {false, true}) {
                assertThat(steps.lockAndTake(settler, row)).hasSize(1);
                settler.setAutoCommit(false);
                assertThat(answer(settler, ackAndUnlock, new Binds().id(id).now(now).key(row.key()))).isTrue();
                var taking = taker.submit(() -> steps.lockAndTake(other, row));
                assertThat(taking.get(10, java.util.concurrent.TimeUnit.SECONDS))
                        .as("a take while the outcome has not committed finds the key held").isEmpty();
                assertThat(answer(other, lock, new Binds().key(row.key()))).as("the key is held").isFalse();
                if (commit) {
                    settler.commit();
                } else {
                    settler.rollback();
                }
                settler.setAutoCommit(true);
                assertThat(answer(settler, unlock, new Binds().key(row.key()))).as("the settler holds nothing")
                        .isFalse();
                assertThat(answer(other, lock, new Binds().key(row.key()))).as("the key came free").isTrue();
                assertThat(answer(other, unlock, new Binds().key(row.key()))).isTrue();
                assertThat(stored(t, id).get("processed_at") != null).as("settled").isEqualTo(commit);
            }
        } finally {
            taker.shutdownNow();
        }
    }

    @Test
    public final void a_take_after_a_release_that_has_not_committed_waits_for_the_commit_and_leaves_the_row()
            throws Exception {
        Jobs t = newTable();
        assumeTrue(dialect.advisoryLockAndTake(payloadBinding(t, Form.ADVISORY).advisory("q-{id}").build(),
                ClaimShape.ROLES).isPresent(), "the dialect takes a key and its row in one statement");
        takeAfterAnUncommittedRelease(t, (steps, c, id) ->
                steps.lockAndTake(c, new ClaimSequence.Candidate(id, "q-" + id)).isEmpty());
    }

    @Test
    public final void a_walk_takes_the_first_row_whose_key_is_free_and_holds_that_key_alone() throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> counted = payloadBinding(t, Form.ADVISORY).advisory("q-{id}").build();
        assumeTrue(dialect.advisoryWalk(counted, ClaimShape.ROLES).isPresent(),
                "the dialect walks the rows and takes one in one statement");
        for (RoleBinding<Record> b : List.of(counted, uncounted(t))) {
            boolean counts = b == counted;
            Statement lock = dialect.advisoryLock(b).orElseThrow();
            Statement unlock = dialect.advisoryUnlock(b).orElseThrow();
            long first = insert(t, r -> r.group("a").priority(1));
            long second = insert(t, r -> r.group("a").priority(2));
            long third = insert(t, r -> r.group("a").priority(3));
            insert(t, r -> r.group("b").priority(0));
            ClaimSequence<Map<String, Object>> steps = steps(b, "a");
            try (Connection holder = db.connect(); Connection walker = db.connect(); Connection late = db.connect()) {
                assertThat(steps.walks()).isTrue();
                assertThat(answer(holder, lock, new Binds().key("q-" + first))).isTrue();
                ClaimSequence.Walked<Map<String, Object>> walked = steps.walk(walker);
                assertThat(walked.took()).as("the walk passes over the held key's row").isTrue();
                assertThat(walked.locked()).isTrue();
                assertThat(walked.cut()).isFalse();
                assertThat(ids(List.of(walked.row()))).containsExactly(second);
                assertThat(walked.key()).isEqualTo("q-" + second);
                if (counts) {
                    assertThat(number(walked.row(), "attempt")).isEqualTo(1L);
                    assertThat(number(stored(t, second), "attempt")).isEqualTo(2L);
                }
                // every claimable key is held now: a walk takes nothing and keeps no key it tried
                assertThat(answer(holder, lock, new Binds().key("q-" + third))).isTrue();
                ClaimSequence.Walked<Map<String, Object>> none = steps.walk(late);
                assertThat(none.took()).isFalse();
                assertThat(none.key()).isNull();
                assertThat(none.locked()).as("it locked no key").isFalse();
                assertThat(none.cut()).as("it tried every claimable row").isFalse();
                for (long id : List.of(first, second, third)) {
                    assertThat(answer(late, unlock, new Binds().key("q-" + id))).as("late holds q-" + id).isFalse();
                }
                // the walker holds the key of the row it took, and of no row it passed
                assertThat(answer(walker, unlock, new Binds().key("q-" + first))).isFalse();
                assertThat(answer(walker, unlock, new Binds().key("q-" + second))).isTrue();
                assertThat(answer(holder, unlock, new Binds().key("q-" + first))).isTrue();
                assertThat(answer(holder, unlock, new Binds().key("q-" + third))).isTrue();
                // a row no longer claimable is passed over; its key is left
                assertThat(update(holder, dialect.ack(b), new Binds().id(first).now(now))).isEqualTo(1);
                assertThat(update(holder, dialect.ack(b), new Binds().id(second).now(now))).isEqualTo(1);
                walked = steps.walk(walker);
                assertThat(ids(List.of(walked.row()))).containsExactly(third);
                assertThat(answer(walker, unlock, new Binds().key("q-" + first))).isFalse();
                assertThat(answer(walker, unlock, new Binds().key("q-" + third))).isTrue();
                assertThat(update(holder, dialect.ack(b), new Binds().id(third).now(now))).isEqualTo(1);
                ClaimSequence.Walked<Map<String, Object>> empty = steps.walk(walker);
                assertThat(empty.took()).as("no row of the group is left").isFalse();
                assertThat(empty.locked() || empty.cut()).isFalse();
            }
        }
    }

    /**
     * An outcome, its key's release and the walk to the next row in one statement: the outcome is written;
     * the walk passes over the settled row and over rows whose keys other sessions hold, takes the first
     * free one and holds its key; a next row that shares the settled row's key is taken, and its key stays
     * held; a settled key the walk did not take again comes free when the outcome commits, not before; where
     * nothing is left, the session holds no key. With and without an attempt column.
     */
    @Test
    public final void a_settlement_that_walks_on_writes_its_outcome_and_takes_the_next_free_row() throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> counted = payloadBinding(t, Form.ADVISORY).advisory("q-{note}").build();
        assumeTrue(dialect.advisorySettleAndWalk(counted, dialect.ack(counted), ClaimShape.ROLES).isPresent(),
                "the dialect writes an outcome, releases its key and walks on in one statement");
        RoleBinding<Record> uncounted = RoleBinding.of(t, t.ID).group(t.GRP).priority(t.PRIORITY)
                .retryAfter(t.RETRY_AFTER).processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).advisory("q-{note}")
                .build();
        for (RoleBinding<Record> b : List.of(counted, uncounted)) {
            boolean counts = b == counted;
            Statement lock = dialect.advisoryLock(b).orElseThrow();
            Statement unlock = dialect.advisoryUnlock(b).orElseThrow();
            Statement ackAndWalk = dialect.advisorySettleAndWalk(b, dialect.ack(b), ClaimShape.ROLES).orElseThrow();
            long first = insert(t, r -> r.group("a").priority(1).note("x"));
            long held = insert(t, r -> r.group("a").priority(2).note("y"));
            long sameKey = insert(t, r -> r.group("a").priority(3).note("x"));
            long last = insert(t, r -> r.group("a").priority(4).note("z"));
            insert(t, r -> r.group("b").priority(0).note("w"));
            ClaimSequence<Map<String, Object>> steps = steps(b, "a");
            try (Connection settler = db.connect(); Connection holder = db.connect(); Connection other = db.connect()) {
                ClaimSequence.Walked<Map<String, Object>> walked = steps.walk(settler);
                assertThat(ids(List.of(walked.row()))).containsExactly(first);
                assertThat(answer(holder, lock, new Binds().key("q-y"))).isTrue();

                // the next free row shares the settled row's key: taken, and the key stays the settler's
                ClaimSequence.SettledWalk<Map<String, Object>> on =
                        steps.settleAndWalk(settler, ackAndWalk, new Binds().id(first).now(now), "q-x");
                assertThat(on.unlocked()).as("the settler held the settled key").isTrue();
                assertThat(stored(t, first).get("processed_at")).isNotNull();
                assertThat(ids(List.of(on.walked().row()))).as("past the settled row and the held key's row")
                        .containsExactly(sameKey);
                assertThat(on.walked().key()).isEqualTo("q-x");
                if (counts) {
                    assertThat(number(on.walked().row(), "attempt")).isEqualTo(1L);
                }
                assertThat(answer(other, lock, new Binds().key("q-x"))).as("the key is still held").isFalse();

                // a next row of another key: the settled key comes free as the outcome commits, not before
                settler.setAutoCommit(false);
                on = steps.settleAndWalk(settler, ackAndWalk, new Binds().id(sameKey).now(now), "q-x");
                assertThat(on.unlocked()).isTrue();
                assertThat(ids(List.of(on.walked().row()))).containsExactly(last);
                assertThat(answer(other, lock, new Binds().key("q-x"))).as("held until the commit").isFalse();
                settler.commit();
                settler.setAutoCommit(true);
                assertThat(answer(other, lock, new Binds().key("q-x"))).as("free after the commit").isTrue();
                assertThat(answer(other, unlock, new Binds().key("q-x"))).isTrue();
                assertThat(answer(other, lock, new Binds().key("q-z"))).as("the walked row's key is held").isFalse();

                // the held key comes free: the walk takes its row
                assertThat(answer(holder, unlock, new Binds().key("q-y"))).isTrue();
                on = steps.settleAndWalk(settler, ackAndWalk, new Binds().id(last).now(now), "q-z");
                assertThat(ids(List.of(on.walked().row()))).containsExactly(held);

                // nothing of the group is left: no row, and the session holds no key
                on = steps.settleAndWalk(settler, ackAndWalk, new Binds().id(held).now(now), "q-y");
                assertThat(on.unlocked()).isTrue();
                assertThat(on.walked().took()).isFalse();
                assertThat(on.walked().locked() || on.walked().cut()).isFalse();
                for (String key : List.of("q-x", "q-y", "q-z")) {
                    assertThat(answer(settler, unlock, new Binds().key(key))).as("the settler holds %s", key)
                            .isFalse();
                }
                for (long id : List.of(first, held, sameKey, last)) {
                    assertThat(stored(t, id).get("processed_at")).as("row %d settled", id).isNotNull();
                }
            }
        }
    }

    /**
     * A settlement's walk passes over the rows of the keys it is told the subscription's other deliveries hold
     * (the runtime's: other sessions of the same process), without trying them: here that key is free, and
     * the walk still takes the row after it. Told nothing, it takes that row.
     */
    @Test
    public final void a_settlement_that_walks_on_passes_over_the_rows_of_the_keys_held_beside_it() throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> b = payloadBinding(t, Form.ADVISORY).advisory("q-{note}").build();
        assumeTrue(dialect.advisorySettleAndWalk(b, dialect.ack(b), ClaimShape.ROLES).isPresent(),
                "the dialect writes an outcome, releases its key and walks on in one statement");
        Statement ackAndWalk = dialect.advisorySettleAndWalk(b, dialect.ack(b), ClaimShape.ROLES).orElseThrow();
        Statement unlock = dialect.advisoryUnlock(b).orElseThrow();
        long first = insert(t, r -> r.group("a").priority(1).note("x"));
        long besideIt = insert(t, r -> r.group("a").priority(2).note("y"));
        long sameKeyAsHeld = insert(t, r -> r.group("a").priority(3).note("y"));
        long last = insert(t, r -> r.group("a").priority(4).note("z"));
        ClaimSequence<Map<String, Object>> steps = steps(b, "a");
        try (Connection settler = db.connect()) {
            assertThat(ids(List.of(steps.walk(settler).row()))).containsExactly(first);
            ClaimSequence.SettledWalk<Map<String, Object>> on = steps.settleAndWalk(settler, ackAndWalk,
                    new Binds().id(first).now(now).heldKeys(List.of("q-w", "q-y")), "q-x");
            assertThat(on.unlocked()).isTrue();
            assertThat(ids(List.of(on.walked().row()))).as("past both rows of the key held beside it")
                    .containsExactly(last);
            assertThat(stored(t, first).get("processed_at")).isNotNull();
            on = steps.settleAndWalk(settler, ackAndWalk, new Binds().id(last).now(now), "q-z");
            assertThat(ids(List.of(on.walked().row()))).as("told of no key held beside it").containsExactly(besideIt);
            assertThat(answer(settler, unlock, new Binds().key("q-y"))).as("the walk took the row's key").isTrue();
            assertThat(stored(t, sameKeyAsHeld).get("processed_at")).isNull();
        }
    }

    @Test
    public final void a_walk_gives_up_after_many_rows_of_held_keys_and_keeps_no_key() throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> b = payloadBinding(t, Form.ADVISORY).advisory("q-{note}").build();
        assumeTrue(dialect.advisoryWalk(b, ClaimShape.ROLES).isPresent(),
                "the dialect walks the rows and takes one in one statement");
        // more rows of one held key than a walk tries (PostgreSQL's 64), then a row of a free key
        for (int i = 0; i < 200; i++) {
            insert(t, r -> r.group("a").note("held"));
        }
        long free = insert(t, r -> r.group("a").note("free"));
        ClaimSequence<Map<String, Object>> steps = steps(b, "a");
        Statement lock = dialect.advisoryLock(b).orElseThrow();
        Statement unlock = dialect.advisoryUnlock(b).orElseThrow();
        try (Connection holder = db.connect(); Connection walker = db.connect()) {
            assertThat(answer(holder, lock, new Binds().key("q-held"))).isTrue();
            ClaimSequence.Walked<Map<String, Object>> walked = steps.walk(walker);
            assertThat(walked.took()).as("the walk gives up before the free key's row").isFalse();
            assertThat(walked.locked()).isFalse();
            assertThat(walked.cut()).as("it says it gave up").isTrue();
            assertThat(answer(walker, unlock, new Binds().key("q-free"))).isFalse();
            assertThat(stored(t, free).get("processed_at")).isNull();
            // the candidates, which the runtime reads then, find it
            assertThat(steps.candidates(walker, 3)).extracting(ClaimSequence.Candidate::key).containsExactly("q-free");
        }
    }

    @Test
    public final void a_walk_after_a_release_that_has_not_committed_waits_for_the_commit_and_leaves_the_row()
            throws Exception {
        Jobs t = newTable();
        assumeTrue(dialect.advisoryWalk(payloadBinding(t, Form.ADVISORY).advisory("q-{id}").build(),
                ClaimShape.ROLES).isPresent(), "the dialect walks the rows and takes one in one statement");
        takeAfterAnUncommittedRelease(t, (steps, c, id) -> {
            ClaimSequence.Walked<Map<String, Object>> walked = steps.walk(c);
            // where it took nothing, it says it locked a key: the runtime walks again
            assertThat(walked.locked()).isTrue();
            return !walked.took();
        });
    }

    /** A take of one row's key and row, by the lock and take or the walk: whether it took nothing. */
    @FunctionalInterface
    private interface Take {
        boolean tookNothing(ClaimSequence<Map<String, Object>> steps, Connection c, long id) throws Exception;
    }

    /**
     * A row of {@code t} taken and then acknowledged in a transaction that released the row's key (a statement
     * of its own) and has not committed: {@code take} on another session locks the key, waits for the commit,
     * then takes nothing and holds no key; with and without an attempt column. The runtime releases a key when
     * its outcome commits ({@link #an_outcome_and_unlock_keeps_the_key_until_the_outcome_commits}); the take's
     * own check covers a row settled after the take's statement began.
     */
    private void takeAfterAnUncommittedRelease(Jobs t, Take take) throws Exception {
        RoleBinding<Record> counted = payloadBinding(t, Form.ADVISORY).advisory("q-{id}").build();
        for (RoleBinding<Record> b : List.of(counted, uncounted(t))) {
            long id = insert(t, r -> r.group("a"));
            ClaimSequence<Map<String, Object>> steps = steps(b, "a");
            var taker = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor();
            try (Connection settler = db.connect(); Connection other = db.connect(); Connection observer = db.connect()) {
                assertThat(take.tookNothing(steps, settler, id)).isFalse();
                // the acknowledgement has released the key and not committed: its commit is still to be seen
                settler.setAutoCommit(false);
                assertThat(update(settler, dialect.ack(b), new Binds().id(id).now(now))).isEqualTo(1);
                assertThat(answer(settler, dialect.advisoryUnlock(b).orElseThrow(), new Binds().key("q-" + id)))
                        .isTrue();
                var taking = taker.submit(() -> take.tookNothing(steps, other, id));
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                        .until(() -> taking.isDone() || sessionsWaitingForALock(observer) > 0);
                assertThat(taking.isDone()).as("the take waits for the settlement's commit").isFalse();
                settler.commit();
                assertThat(taking.get(10, java.util.concurrent.TimeUnit.SECONDS)).as("it took nothing").isTrue();
                assertThat(answer(other, dialect.advisoryUnlock(b).orElseThrow(), new Binds().key("q-" + id)))
                        .as("the take that left the row left its key").isFalse();
            } finally {
                taker.shutdownNow();
            }
        }
    }

    /** An advisory binding of {@code t} without the attempt role: a take that counts no attempt. */
    private static RoleBinding<Record> uncounted(Jobs t) {
        return RoleBinding.of(t, t.ID).group(t.GRP).priority(t.PRIORITY).retryAfter(t.RETRY_AFTER)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).advisory("q-{id}").build();
    }

    /** How many sessions of the server wait for a row lock now. */
    private long sessionsWaitingForALock(Connection observer) throws SQLException {
        String sql = switch (database().engine()) {
            case POSTGRES -> "select count(*) from pg_stat_activity where wait_event_type = 'Lock'"
                    + " and datname = current_database()";
            case MARIADB, MYSQL -> "select count(*) from information_schema.innodb_trx where trx_state = 'LOCK WAIT'";
            case SQLITE -> throw new IllegalStateException("SQLite takes one writer at a time and has no row locks");
        };
        try (PreparedStatement ps = observer.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
