package dev.tablequeue.test.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.ClaimShape;
import dev.tablequeue.dialect.KeyLocks;
import dev.tablequeue.dialect.QueueKeys;
import dev.tablequeue.dialect.QueueSettlements.Kind;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.ClaimSequence;
import dev.tablequeue.test.FreshDatabase;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import org.jooq.Record;
import org.junit.jupiter.api.Test;

/**
 * The advisory form: keys locked, passed over while held elsewhere and released; a key part of a null
 * column; a key held in another database; and a key and its row taken, and settled and released, in one
 * statement where the dialect has one. The walks are {@link DialectAdvisoryWalkContract}'s.
 *
 * <p>Part of the dialect contract: what every dialect's statements do on its real server. A dialect proves
 * itself by a small subclass of each part that names its {@link ContractDatabase}; the tests are final, so no
 * subclass drops one. A form or a level the dialect does not serve is asserted to be refused.
 */
public abstract class DialectAdvisoryContract extends AdvisoryFixture {

    // ---------------------------------------------------------------- advisory locks

    @Test
    public final void advisory_locks_lock_pass_over_held_keys_and_release() throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> b = payloadBinding(t, Form.ADVISORY).advisory("q-{id}").build();
        long first = insert(t, r -> r.group("a").priority(1));
        long second = insert(t, r -> r.group("a").priority(2));
        ClaimSequence<Map<String, Object>> steps = steps(b, "a");
        try (Connection holder = db.connect(); Connection other = db.connect()) {
            List<QueueKeys.Candidate> candidates = steps.candidates(holder, 10);
            assertThat(candidateIds(candidates)).containsExactly(first, second);
            assertThat(candidates.get(0).key()).isEqualTo("q-" + first);

            // the session takes the keys, or the process does (SQLite): one of the two, never both
            KeyLocks locks = keyLocks(b);
            boolean inSession = locks.inProcess().isEmpty();
            assertThat(locks.statements()).as("the statements of a session's locks").hasSize(inSession ? 2 : 0);
            String key = "q-" + first;
            if (inSession) {
                assertThat(locks.tryLock(holder, key)).isTrue();
                // another session passes over the held key, and cannot take it
                assertThat(candidateIds(steps.candidates(other, 10))).containsExactly(second);
                assertThat(locks.tryLock(other, key)).isFalse();
                assertThat(locks.unlock(other, key)).isFalse();
            }

            List<Map<String, Object>> taken = take(holder, b, first);
            assertThat(ids(taken)).containsExactly(first);
            assertThat(number(taken.get(0), "attempt")).isEqualTo(1L);
            assertThat(number(stored(t, first), "attempt")).isEqualTo(2L);

            // a row settled by its holder is no longer taken
            assertThat(settle(holder, b, Kind.ACK, new Binds().id(first).now(now))).isEmpty();
            assertThat(take(other, b, first)).isEmpty();

            if (inSession) {
                assertThat(locks.unlock(holder, key)).isTrue();
                assertThat(locks.tryLock(other, key)).isTrue();
                assertThat(locks.unlock(other, key)).isTrue();
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
            List<QueueKeys.Candidate> candidates = steps(b, "a").candidates(c, 10);
            assertThat(candidateIds(candidates)).containsExactly(unnoted, noted);
            assertThat(candidates).extracting(QueueKeys.Candidate::key).containsExactly("n-", "n-x");
            KeyLocks locks = keyLocks(b);
            assertThat(locks.tryLock(c, "n-")).isTrue();
            assertThat(locks.unlock(c, "n-")).isTrue();
        }
    }

    @Test
    public final void a_key_held_in_another_database_of_the_server_does_not_hold_back_its_candidate()
            throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> b = payloadBinding(t, Form.ADVISORY).advisory("q-{id}").build();
        long id = insert(t, r -> r.group("a"));
        String key = "q-" + id;
        try (FreshDatabase other = database().open(getClass().getSimpleName() + "_other");
                Connection there = other.connect(); Connection here = db.connect()) {
            // the same key, taken as the dialect takes it, by a session of another database (or, where the process
            // keeps the keys, in the other database file's)
            KeyLocks thereLocks = dialect.keyLocks(b, there);
            assertThat(thereLocks.tryLock(there, key)).isTrue();
            try {
                assertThat(candidateIds(steps(b, "a").candidates(here, 10))).containsExactly(id);
                KeyLocks hereLocks = dialect.keyLocks(b, here);
                assertThat(hereLocks.tryLock(here, key)).isTrue();
                assertThat(hereLocks.unlock(here, key)).isTrue();
            } finally {
                thereLocks.unlock(there, key);
            }
        }
    }

    @Test
    public final void a_lock_and_take_holds_the_key_of_the_row_it_took_and_of_no_row_it_left() throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> counted = payloadBinding(t, Form.ADVISORY).advisory("q-{id}").build();
        assumeTrue(dialect.keys(counted, ClaimShape.ROLES, false).locksAndTakes(),
                "the dialect takes a key and its row in one statement");
        for (RoleBinding<Record> b : List.of(counted, uncounted(t))) {
            boolean counts = b == counted;
            KeyLocks locks = sessionLocks(b);
            long first = insert(t, r -> r.group("a").priority(1));
            long second = insert(t, r -> r.group("a").priority(2));
            ClaimSequence<Map<String, Object>> steps = steps(b, "a");
            QueueKeys.Candidate one = new QueueKeys.Candidate(first, "q-" + first);
            QueueKeys.Candidate two = new QueueKeys.Candidate(second, "q-" + second);
            try (Connection holder = db.connect(); Connection other = db.connect()) {
                assertThat(steps.locksAndTakes()).isTrue();
                List<Map<String, Object>> taken = steps.lockAndTake(holder, one);
                assertThat(ids(taken)).containsExactly(first);
                if (counts) {
                    assertThat(number(taken.get(0), "attempt")).isEqualTo(1L);
                    assertThat(number(stored(t, first), "attempt")).isEqualTo(2L);
                }
                // the key is the holder's: another session takes neither it nor the row, and holds nothing
                assertThat(locks.tryLock(other, one.key())).isFalse();
                assertThat(steps.lockAndTake(other, one)).isEmpty();
                assertThat(locks.unlock(other, one.key())).isFalse();

                // a row no longer claimable is left, and so is its key
                assertThat(settle(holder, b, Kind.ACK, new Binds().id(second).now(now))).isEmpty();
                assertThat(steps.lockAndTake(other, two)).isEmpty();
                assertThat(locks.unlock(other, two.key())).isFalse();

                // the outcome and the release in one statement
                Statement ackAndUnlock = dialect.advisorySettleAndUnlock(b, outcome(b, Kind.ACK)).orElseThrow();
                assertThat(answer(holder, ackAndUnlock, new Binds().id(first).now(now).key(one.key()))).isTrue();
                assertThat(stored(t, first).get("processed_at")).isNotNull();
                assertThat(locks.unlock(holder, one.key())).isFalse();
                assertThat(locks.tryLock(other, one.key())).isTrue();
                assertThat(locks.unlock(other, one.key())).isTrue();
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
        assumeTrue(dialect.advisorySettleAndUnlock(b, outcome(b, Kind.ACK)).isPresent(),
                "the dialect writes an outcome and releases its key in one statement");
        assumeTrue(dialect.keys(b, ClaimShape.ROLES, false).locksAndTakes(),
                "the dialect takes a key and its row in one statement");
        Statement ackAndUnlock = dialect.advisorySettleAndUnlock(b, outcome(b, Kind.ACK)).orElseThrow();
        KeyLocks locks = sessionLocks(b);
        long id = insert(t, r -> r.group("a"));
        QueueKeys.Candidate row = new QueueKeys.Candidate(id, "q-" + id);
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
                assertThat(locks.tryLock(other, row.key())).as("the key is held").isFalse();
                if (commit) {
                    settler.commit();
                } else {
                    settler.rollback();
                }
                settler.setAutoCommit(true);
                assertThat(locks.unlock(settler, row.key())).as("the settler holds nothing")
                        .isFalse();
                assertThat(locks.tryLock(other, row.key())).as("the key came free").isTrue();
                assertThat(locks.unlock(other, row.key())).isTrue();
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
        assumeTrue(dialect.keys(payloadBinding(t, Form.ADVISORY).advisory("q-{id}").build(), ClaimShape.ROLES, false)
                .locksAndTakes(), "the dialect takes a key and its row in one statement");
        takeAfterAnUncommittedRelease(t, (steps, c, id) ->
                steps.lockAndTake(c, new QueueKeys.Candidate(id, "q-" + id)).isEmpty());
    }
}
