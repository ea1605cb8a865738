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
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import org.jooq.Record;
import org.junit.jupiter.api.Test;

/**
 * The advisory walk, where the dialect has one: one statement walks the claim order, locks the first key it
 * can and takes that key's row; a settlement writes its outcome, releases its key and walks on to the next
 * free row; a walk passes over the rows of keys held beside it, gives up after many held ones, and waits for
 * a release that has not committed.
 *
 * <p>Part of the dialect contract: what every dialect's statements do on its real server. A dialect proves
 * itself by a small subclass of each part that names its {@link ContractDatabase}; the tests are final, so no
 * subclass drops one. A dialect without a walk passes each test by its assumption.
 */
public abstract class DialectAdvisoryWalkContract extends AdvisoryFixture {

    @Test
    public final void a_walk_takes_the_first_row_whose_key_is_free_and_holds_that_key_alone() throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> counted = payloadBinding(t, Form.ADVISORY).advisory("q-{id}").build();
        assumeTrue(dialect.keys(counted, ClaimShape.ROLES, false).walks(),
                "the dialect walks the rows and takes one in one statement");
        for (RoleBinding<Record> b : List.of(counted, uncounted(t))) {
            boolean counts = b == counted;
            KeyLocks locks = sessionLocks(b);
            long first = insert(t, r -> r.group("a").priority(1));
            long second = insert(t, r -> r.group("a").priority(2));
            long third = insert(t, r -> r.group("a").priority(3));
            insert(t, r -> r.group("b").priority(0));
            ClaimSequence<Map<String, Object>> steps = steps(b, "a");
            try (Connection holder = db.connect(); Connection walker = db.connect(); Connection late = db.connect()) {
                assertThat(steps.walks()).isTrue();
                assertThat(locks.tryLock(holder, "q-" + first)).isTrue();
                QueueKeys.Walked<Map<String, Object>> walked = steps.walk(walker);
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
                assertThat(locks.tryLock(holder, "q-" + third)).isTrue();
                QueueKeys.Walked<Map<String, Object>> none = steps.walk(late);
                assertThat(none.took()).isFalse();
                assertThat(none.key()).isNull();
                assertThat(none.locked()).as("it locked no key").isFalse();
                assertThat(none.cut()).as("it tried every claimable row").isFalse();
                for (long id : List.of(first, second, third)) {
                    assertThat(locks.unlock(late, "q-" + id)).as("late holds q-" + id).isFalse();
                }
                // the walker holds the key of the row it took, and of no row it passed
                assertThat(locks.unlock(walker, "q-" + first)).isFalse();
                assertThat(locks.unlock(walker, "q-" + second)).isTrue();
                assertThat(locks.unlock(holder, "q-" + first)).isTrue();
                assertThat(locks.unlock(holder, "q-" + third)).isTrue();
                // a row no longer claimable is passed over; its key is left
                assertThat(settle(holder, b, Kind.ACK, new Binds().id(first).now(now))).isEmpty();
                assertThat(settle(holder, b, Kind.ACK, new Binds().id(second).now(now))).isEmpty();
                walked = steps.walk(walker);
                assertThat(ids(List.of(walked.row()))).containsExactly(third);
                assertThat(locks.unlock(walker, "q-" + first)).isFalse();
                assertThat(locks.unlock(walker, "q-" + third)).isTrue();
                assertThat(settle(holder, b, Kind.ACK, new Binds().id(third).now(now))).isEmpty();
                QueueKeys.Walked<Map<String, Object>> empty = steps.walk(walker);
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
        assumeTrue(dialect.advisorySettleAndWalk(counted, outcome(counted, Kind.ACK), ClaimShape.ROLES).isPresent(),
                "the dialect writes an outcome, releases its key and walks on in one statement");
        RoleBinding<Record> uncounted = RoleBinding.of(t, t.ID).group(t.GRP).priority(t.PRIORITY)
                .retryAfter(t.RETRY_AFTER).processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).advisory("q-{note}")
                .build();
        for (RoleBinding<Record> b : List.of(counted, uncounted)) {
            boolean counts = b == counted;
            KeyLocks locks = sessionLocks(b);
            Statement ackAndWalk = dialect.advisorySettleAndWalk(b, outcome(b, Kind.ACK), ClaimShape.ROLES)
                    .orElseThrow();
            long first = insert(t, r -> r.group("a").priority(1).note("x"));
            long held = insert(t, r -> r.group("a").priority(2).note("y"));
            long sameKey = insert(t, r -> r.group("a").priority(3).note("x"));
            long last = insert(t, r -> r.group("a").priority(4).note("z"));
            insert(t, r -> r.group("b").priority(0).note("w"));
            ClaimSequence<Map<String, Object>> steps = steps(b, "a");
            try (Connection settler = db.connect(); Connection holder = db.connect(); Connection other = db.connect()) {
                QueueKeys.Walked<Map<String, Object>> walked = steps.walk(settler);
                assertThat(ids(List.of(walked.row()))).containsExactly(first);
                assertThat(locks.tryLock(holder, "q-y")).isTrue();

                // the next free row shares the settled row's key: taken, and the key stays the settler's
                QueueKeys.SettledWalk<Map<String, Object>> on =
                        steps.settleAndWalk(settler, ackAndWalk, new Binds().id(first).now(now), "q-x");
                assertThat(on.unlocked()).as("the settler held the settled key").isTrue();
                assertThat(stored(t, first).get("processed_at")).isNotNull();
                assertThat(ids(List.of(on.walked().row()))).as("past the settled row and the held key's row")
                        .containsExactly(sameKey);
                assertThat(on.walked().key()).isEqualTo("q-x");
                if (counts) {
                    assertThat(number(on.walked().row(), "attempt")).isEqualTo(1L);
                }
                assertThat(locks.tryLock(other, "q-x")).as("the key is still held").isFalse();

                // a next row of another key: the settled key comes free as the outcome commits, not before
                settler.setAutoCommit(false);
                on = steps.settleAndWalk(settler, ackAndWalk, new Binds().id(sameKey).now(now), "q-x");
                assertThat(on.unlocked()).isTrue();
                assertThat(ids(List.of(on.walked().row()))).containsExactly(last);
                assertThat(locks.tryLock(other, "q-x")).as("held until the commit").isFalse();
                settler.commit();
                settler.setAutoCommit(true);
                assertThat(locks.tryLock(other, "q-x")).as("free after the commit").isTrue();
                assertThat(locks.unlock(other, "q-x")).isTrue();
                assertThat(locks.tryLock(other, "q-z")).as("the walked row's key is held").isFalse();

                // the held key comes free: the walk takes its row
                assertThat(locks.unlock(holder, "q-y")).isTrue();
                on = steps.settleAndWalk(settler, ackAndWalk, new Binds().id(last).now(now), "q-z");
                assertThat(ids(List.of(on.walked().row()))).containsExactly(held);

                // nothing of the group is left: no row, and the session holds no key
                on = steps.settleAndWalk(settler, ackAndWalk, new Binds().id(held).now(now), "q-y");
                assertThat(on.unlocked()).isTrue();
                assertThat(on.walked().took()).isFalse();
                assertThat(on.walked().locked() || on.walked().cut()).isFalse();
                for (String key : List.of("q-x", "q-y", "q-z")) {
                    assertThat(locks.unlock(settler, key)).as("the settler holds %s", key)
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
        assumeTrue(dialect.advisorySettleAndWalk(b, outcome(b, Kind.ACK), ClaimShape.ROLES).isPresent(),
                "the dialect writes an outcome, releases its key and walks on in one statement");
        Statement ackAndWalk = dialect.advisorySettleAndWalk(b, outcome(b, Kind.ACK), ClaimShape.ROLES).orElseThrow();
        KeyLocks locks = sessionLocks(b);
        long first = insert(t, r -> r.group("a").priority(1).note("x"));
        long besideIt = insert(t, r -> r.group("a").priority(2).note("y"));
        long sameKeyAsHeld = insert(t, r -> r.group("a").priority(3).note("y"));
        long last = insert(t, r -> r.group("a").priority(4).note("z"));
        ClaimSequence<Map<String, Object>> steps = steps(b, "a");
        try (Connection settler = db.connect()) {
            assertThat(ids(List.of(steps.walk(settler).row()))).containsExactly(first);
            QueueKeys.SettledWalk<Map<String, Object>> on = steps.settleAndWalk(settler, ackAndWalk,
                    new Binds().id(first).now(now).heldKeys(List.of("q-w", "q-y")), "q-x");
            assertThat(on.unlocked()).isTrue();
            assertThat(ids(List.of(on.walked().row()))).as("past both rows of the key held beside it")
                    .containsExactly(last);
            assertThat(stored(t, first).get("processed_at")).isNotNull();
            on = steps.settleAndWalk(settler, ackAndWalk, new Binds().id(last).now(now), "q-z");
            assertThat(ids(List.of(on.walked().row()))).as("told of no key held beside it").containsExactly(besideIt);
            assertThat(locks.unlock(settler, "q-y")).as("the walk took the row's key").isTrue();
            assertThat(stored(t, sameKeyAsHeld).get("processed_at")).isNull();
        }
    }

    @Test
    public final void a_walk_gives_up_after_many_rows_of_held_keys_and_keeps_no_key() throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> b = payloadBinding(t, Form.ADVISORY).advisory("q-{note}").build();
        assumeTrue(dialect.keys(b, ClaimShape.ROLES, false).walks(),
                "the dialect walks the rows and takes one in one statement");
        // more rows of one held key than a walk tries (PostgreSQL's 64), then a row of a free key
        for (int i = 0; i < 200; i++) {
            insert(t, r -> r.group("a").note("held"));
        }
        long free = insert(t, r -> r.group("a").note("free"));
        ClaimSequence<Map<String, Object>> steps = steps(b, "a");
        KeyLocks locks = sessionLocks(b);
        try (Connection holder = db.connect(); Connection walker = db.connect()) {
            assertThat(locks.tryLock(holder, "q-held")).isTrue();
            QueueKeys.Walked<Map<String, Object>> walked = steps.walk(walker);
            assertThat(walked.took()).as("the walk gives up before the free key's row").isFalse();
            assertThat(walked.locked()).isFalse();
            assertThat(walked.cut()).as("it says it gave up").isTrue();
            assertThat(locks.unlock(walker, "q-free")).isFalse();
            assertThat(stored(t, free).get("processed_at")).isNull();
            // the candidates, which the runtime reads then, find it
            assertThat(steps.candidates(walker, 3)).extracting(QueueKeys.Candidate::key).containsExactly("q-free");
        }
    }

    @Test
    public final void a_walk_after_a_release_that_has_not_committed_waits_for_the_commit_and_leaves_the_row()
            throws Exception {
        Jobs t = newTable();
        assumeTrue(dialect.keys(payloadBinding(t, Form.ADVISORY).advisory("q-{id}").build(), ClaimShape.ROLES, false)
                .walks(), "the dialect walks the rows and takes one in one statement");
        takeAfterAnUncommittedRelease(t, (steps, c, id) -> {
            QueueKeys.Walked<Map<String, Object>> walked = steps.walk(c);
            // where it took nothing, it says it locked a key: the runtime walks again
            assertThat(walked.locked()).isTrue();
            return !walked.took();
        });
    }
}
