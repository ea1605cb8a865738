package dev.tablequeue.test.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tablequeue.DialectException;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.ClaimShape;
import dev.tablequeue.dialect.QueueSettlements;
import dev.tablequeue.dialect.QueueSettlements.Kind;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.internal.Binds;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import org.jooq.Record;
import org.junit.jupiter.api.Test;

/**
 * What each outcome's statement writes: a retry, a delayed retry on either clock, an acknowledgement
 * and a drop, a dead letter into a group or a table, and the last error a failure leaves.
 *
 * <p>Part of the dialect contract: what every dialect's statements do on its real server. A dialect proves
 * itself by a small subclass of each part that names its {@link ContractDatabase}; the tests are final, so no
 * subclass drops one. A form or a level the dialect does not serve is asserted to be refused.
 */
public abstract class DialectSettlementsContract extends DialectFixture {

    // ---------------------------------------------------------------- settlements

    @Test
    public final void retry_counts_the_attempt_under_a_row_lock_and_clears_the_lease_under_a_lease() throws Exception {
        Jobs t = newTable();
        if (dialect.supportsForm(Form.ROW_LOCK)) {
            RoleBinding<Record> b = payloadBinding(t, Form.ROW_LOCK).build();
            long id = insert(t, r -> r.group("a"));
            try (Connection c = db.connect()) {
                begin(c, b);
                assertThat(ids(claim(c, b, ClaimShape.IDS, 1))).containsExactly(id);
                assertThat(settle(c, b, Kind.RETRY, new Binds().id(id))).isEmpty();
                commit(c, b);
            }
            assertThat(number(stored(t, id), "attempt")).isEqualTo(2L);
        }
        RoleBinding<Record> lease = payloadBinding(t, Form.LEASE).lease(t.LOCKED_UNTIL).build();
        long id = insert(t, r -> r.group("b"));
        Instant until = now.plusSeconds(30);
        try (Connection c = db.connect()) {
            leaseClaim(c, lease, ClaimShape.IDS, 1, until, "b");
            assertThat(settle(c, lease, Kind.RETRY, new Binds().id(id).leaseHeld(until))).isEmpty();
            Map<String, Object> row = stored(t, id);
            assertThat(row.get("locked_until")).isNull();
            assertThat(number(row, "attempt")).isEqualTo(2L);
            assertThat(ids(leaseClaim(c, lease, ClaimShape.IDS, 1, until, "b"))).containsExactly(id);
        }
        RoleBinding<Record> advisory = payloadBinding(t, Form.ADVISORY).advisory("q-{id}").build();
        assertThat(dialect.settlements(advisory, false, null).statements(Kind.RETRY)).isEmpty();
    }

    @Test
    public final void retry_after_hides_the_row_until_its_time_on_either_clock() throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> host = payloadBinding(t, Form.LEASE).lease(t.LOCKED_UNTIL).build();
        long id = insert(t, r -> r.group("a"));
        Instant until = now.plusSeconds(30);
        try (Connection c = db.connect()) {
            leaseClaim(c, host, ClaimShape.IDS, 1, until);
            Instant later = now.plusSeconds(600);
            assertThat(settle(c, host, Kind.RETRY_AFTER, new Binds().id(id).leaseHeld(until).retryAt(later)))
                    .isEmpty();
            assertThat(instant(stored(t, id).get("retry_after"))).isEqualTo(later);
            assertThat(leaseClaim(c, host, ClaimShape.IDS, 1, until)).isEmpty();
            assertThat(ids(leaseClaimAt(c, host, later.plusSeconds(1), until.plusSeconds(900))))
                    .containsExactly(id);
        }

        // the database's clock: the row is due by the server's now, and a delay moves it forward
        RoleBinding<Record> dbClock = payloadBinding(t, Form.ADVISORY).advisory("q-{id}").databaseClock().build();
        long other = insert(t, r -> r.group("c").due(Instant.now().minusSeconds(5)));
        try (Connection c = db.connect()) {
            assertThat(candidateIds(steps(dbClock, "c").candidates(c, 5))).containsExactly(other);
            Instant before = Instant.now().truncatedTo(ChronoUnit.MILLIS);
            assertThat(settle(c, dbClock, Kind.RETRY_AFTER,
                    new Binds().id(other).delay(Duration.ofMinutes(10)))).isEmpty();
            Instant due = instant(stored(t, other).get("retry_after"));
            assertThat(due).isBetween(before.plus(Duration.ofMinutes(10)).minusSeconds(5),
                    Instant.now().plus(Duration.ofMinutes(10)).plusSeconds(5));
            assertThat(steps(dbClock, "c").candidates(c, 5)).isEmpty();
            assertThat(settle(c, dbClock, Kind.ACK, new Binds().id(other))).isEmpty();
            assertThat(instant(stored(t, other).get("processed_at")))
                    .isBetween(before.minusSeconds(5), Instant.now().plusSeconds(5));
        }
    }

    @Test
    public final void ack_and_drop_mark_processed_at_or_delete_the_row() throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> marks = payloadBinding(t, Form.ADVISORY).advisory("q-{id}").build();
        RoleBinding<Record> deletes = RoleBinding.of(t, t.ID)
                .group(t.GRP)
                .payload(t.PAYLOAD)
                .advisory("q-{id}")
                .build();
        long acked = insert(t, r -> r.group("a"));
        long discarded = insert(t, r -> r.group("a"));
        long deleted = insert(t, r -> r.group("a"));
        long dropped = insert(t, r -> r.group("a"));
        try (Connection c = db.connect()) {
            assertThat(settle(c, marks, Kind.ACK, new Binds().id(acked).now(now))).isEmpty();
            assertThat(settle(c, marks, Kind.DROP, new Binds().id(discarded).now(now))).isEmpty();
            assertThat(settle(c, deletes, Kind.ACK, new Binds().id(deleted))).isEmpty();
            assertThat(settle(c, deletes, Kind.DROP, new Binds().id(dropped))).isEmpty();
        }
        assertThat(instant(stored(t, acked).get("processed_at"))).isEqualTo(now);
        assertThat(instant(stored(t, discarded).get("processed_at"))).isEqualTo(now);
        assertThat(find(t, deleted)).isEmpty();
        assertThat(find(t, dropped)).isEmpty();
    }

    @Test
    public final void a_dead_letter_into_a_group_keeps_the_attempt() throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> b = payloadBinding(t, Form.LEASE).lease(t.LOCKED_UNTIL).build();
        long id = insert(t, r -> r.group("a").attempt(5));
        Instant until = now.plusSeconds(30);
        try (Connection c = db.connect()) {
            leaseClaim(c, b, ClaimShape.IDS, 1, until);
            assertThat(settle(c, b, Kind.DEAD_LETTER_TO_GROUP,
                    new Binds().id(id).leaseHeld(until).destination("escalated"))).isEmpty();
        }
        Map<String, Object> row = stored(t, id);
        assertThat(row.get("grp")).isEqualTo("escalated");
        assertThat(number(row, "attempt")).isEqualTo(6L);
        assertThat(row.get("locked_until")).isNull();

        RoleBinding<Record> noGroup = RoleBinding.of(t, t.ID).payload(t.PAYLOAD).advisory("q-{id}").build();
        assertThatThrownBy(() -> dialect.settlements(noGroup, true, null))
                .isInstanceOf(DialectException.class)
                .hasMessageContaining(t.getName());
        // a kind the subscription did not declare, or the table cannot write, is refused by name, not skipped
        assertThatThrownBy(() -> dialect.settlements(b, false, null).statements(Kind.DEAD_LETTER_TO_GROUP))
                .isInstanceOf(DialectException.class)
                .hasMessageContaining(t.getName()).hasMessageContaining("dead letter to group");
        assertThatThrownBy(() -> dialect.settlements(noGroup, false, null).statements(Kind.RETRY_AFTER))
                .isInstanceOf(DialectException.class)
                .hasMessageContaining(t.getName()).hasMessageContaining("retryAfter column");
        // the kinds settlements write are those they do not refuse
        assertThat(dialect.settlements(noGroup, false, null).kinds())
                .containsExactly(Kind.ACK, Kind.DROP, Kind.RETRY);
        assertThat(dialect.settlements(b, true, null).kinds()).contains(Kind.DEAD_LETTER_TO_GROUP)
                .doesNotContain(Kind.DEAD_LETTER_TO_TABLE);
        assertThat(dialect.settlements(b, false, null).kinds()).doesNotContain(Kind.DEAD_LETTER_TO_GROUP);
    }

    @Test
    public final void a_dead_letter_into_a_table_keeps_every_column() throws Exception {
        Jobs t = newTable();
        Jobs dead = newTable();
        RoleBinding<Record> b = payloadBinding(t, Form.LEASE).lease(t.LOCKED_UNTIL).build();
        long id = insert(t, r -> r.group("a").priority(3).key("k1").headers("{\"h\":\"v\"}")
                .payload(new byte[] {1, 2, 3}).note("keep me").attempt(4).due(now.minusSeconds(7)));
        Instant until = now.plusSeconds(30);
        Map<String, Object> before;
        try (Connection c = db.connect()) {
            leaseClaim(c, b, ClaimShape.IDS, 1, until);
            before = stored(t, id);
            QueueSettlements move = dialect.settlements(b, false, dead);
            assertThat(move.statements(Kind.DEAD_LETTER_TO_TABLE)).as("a copy, then a delete").hasSize(2);
            begin(c, b);
            Binds binds = new Binds().id(id).leaseHeld(until);
            assertThat(move.write(c, new QueueSettlements.Outcome(Kind.DEAD_LETTER_TO_TABLE, binds))).isEmpty();
            commit(c, b);
        }
        assertThat(find(t, id)).isEmpty();
        Map<String, Object> after = stored(dead, id);
        assertThat(after.keySet()).isEqualTo(before.keySet());
        for (String column : before.keySet()) {
            Object was = before.get(column);
            Object is = after.get(column);
            if (was instanceof byte[] bytes) {
                assertThat((byte[]) is).as(column).isEqualTo(bytes);
            } else {
                assertThat(is).as(column).isEqualTo(was);
            }
        }
    }

    @Test
    public final void an_outcome_a_failure_caused_writes_the_last_error_and_any_other_keeps_it() throws Exception {
        Jobs t = newTable();
        Jobs dead = newTable();
        RoleBinding<Record> b = payloadBinding(t, Form.ADVISORY).lastError(t.LAST_ERROR).advisory("q-{id}").build();
        long id = insert(t, r -> r.group("a"));
        try (Connection c = db.connect()) {
            assertThat(settle(c, b, Kind.RETRY, new Binds().id(id).lastError("java.io.IOException: first")))
                    .isEmpty();
            assertThat(stored(t, id).get("last_error")).isEqualTo("java.io.IOException: first");
            assertThat(settle(c, b, Kind.RETRY_AFTER, new Binds().id(id).retryAt(now.plusSeconds(60))
                    .lastError("java.io.IOException: second"))).isEmpty();
            assertThat(stored(t, id).get("last_error")).isEqualTo("java.io.IOException: second");
            // a retry the handler chose, with no failure, keeps the error the row met last
            assertThat(settle(c, b, Kind.RETRY, new Binds().id(id))).isEmpty();
            assertThat(settle(c, b, Kind.DEAD_LETTER_TO_GROUP, new Binds().id(id).destination("dead"))).isEmpty();
            assertThat(stored(t, id).get("last_error")).isEqualTo("java.io.IOException: second");
            assertThat(settle(c, b, Kind.DEAD_LETTER_TO_GROUP, new Binds().id(id).destination("deader")
                    .lastError("java.io.IOException: third"))).isEmpty();
            assertThat(settle(c, b, Kind.ACK, new Binds().id(id).now(now))).isEmpty();
            Map<String, Object> row = stored(t, id);
            assertThat(row.get("grp")).isEqualTo("deader");
            assertThat(row.get("last_error")).isEqualTo("java.io.IOException: third");
            assertThat(instant(row.get("processed_at"))).isEqualTo(now);

            long dropped = insert(t, r -> r.group("a"));
            assertThat(settle(c, b, Kind.DROP, new Binds().id(dropped).now(now).lastError("undecodable")))
                    .isEmpty();
            assertThat(stored(t, dropped).get("last_error")).isEqualTo("undecodable");

            long moved = insert(t, r -> r.group("a").note("keep me"));
            QueueSettlements move = dialect.settlements(b, false, dead);
            begin(c, b);
            assertThat(move.write(c, new QueueSettlements.Outcome(Kind.DEAD_LETTER_TO_TABLE,
                    new Binds().id(moved).lastError("java.io.IOException: moved")))).isEmpty();
            commit(c, b);
            assertThat(find(t, moved)).isEmpty();
            assertThat(stored(dead, moved).get("last_error")).isEqualTo("java.io.IOException: moved");
            assertThat(stored(dead, moved).get("note")).isEqualTo("keep me");
        }
        // the retries of the other forms write it too: the row lock's with the attempt, the lease's with its token
        if (dialect.supportsForm(Form.ROW_LOCK)) {
            RoleBinding<Record> rowLock = payloadBinding(t, Form.ROW_LOCK).lastError(t.LAST_ERROR).build();
            long locked = insert(t, r -> r.group("r"));
            try (Connection c = db.connect()) {
                begin(c, rowLock);
                assertThat(ids(claim(c, rowLock, ClaimShape.IDS, 1, "r"))).containsExactly(locked);
                assertThat(settle(c, rowLock, Kind.RETRY, new Binds().id(locked).lastError("row lock"))).isEmpty();
                commit(c, rowLock);
            }
            assertThat(stored(t, locked)).containsEntry("last_error", "row lock");
            assertThat(number(stored(t, locked), "attempt")).isEqualTo(2L);
        }
        RoleBinding<Record> lease = payloadBinding(t, Form.LEASE).lastError(t.LAST_ERROR).lease(t.LOCKED_UNTIL)
                .build();
        long leased = insert(t, r -> r.group("l"));
        Instant until = now.plusSeconds(30);
        try (Connection c = db.connect()) {
            assertThat(ids(leaseClaim(c, lease, ClaimShape.IDS, 1, until, "l"))).containsExactly(leased);
            Statement retry = outcome(lease, Kind.RETRY);
            Optional<Statement> late = settle(c, lease, Kind.RETRY,
                    new Binds().id(leased).leaseHeld(until.minusSeconds(1)).lastError("late"));
            assertThat(late.map(Statement::sql)).as("a stale token changes nothing").contains(retry.sql());
            assertThat(settle(c, lease, Kind.RETRY, new Binds().id(leased).leaseHeld(until).lastError("lease")))
                    .isEmpty();
        }
        assertThat(stored(t, leased)).containsEntry("last_error", "lease").containsEntry("locked_until", null);
    }
}
