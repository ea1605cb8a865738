package dev.tablequeue.dialect;

import dev.tablequeue.DialectException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.Isolation;
import dev.tablequeue.binding.Opening;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.binding.SqliteMode;
import dev.tablequeue.testkit.LiveDatabase;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.ClaimSequence;
import dev.tablequeue.internal.StatementBinder;
import dev.tablequeue.internal.SqliteKeyRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.time.temporal.Temporal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.jooq.DataType;
import org.jooq.Record;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What every dialect's statements do on its real server. Each database runs this suite through a small
 * subclass that supplies the server, the dialect, the time type and the table's DDL; the tests are final,
 * so no subclass drops one. A form or a level the dialect does not serve is asserted to be refused.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class DialectContract {
    private static final AtomicInteger TABLES = new AtomicInteger();

    /** The database engine under test. */
    protected abstract LiveDatabase.Engine engine();

    /** The dialect, built for the server {@code connection} reaches. */
    protected abstract QueueDialect dialect(Connection connection) throws SQLException;

    /** The jOOQ type of the table's time columns on this database. */
    protected abstract DataType<? extends Temporal> timeType();

    /**
     * The DDL of a queue table named {@code name} with the columns of {@link QueueTable}: id (generated),
     * grp, priority (default 0), partition_key, retry_after (default now), attempt (default 1),
     * processed_at, locked_until, headers (text), payload (bytes), note (text), last_error (text).
     */
    protected abstract String createTable(String name);

    protected LiveDatabase db;
    protected QueueDialect dialect;
    /** Runs claims through the runtime's own steps. */
    private StatementRunner runner;
    private final Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);

    @BeforeAll
    void openDatabase() throws SQLException {
        db = LiveDatabase.create(engine(), getClass().getSimpleName());
        try (Connection c = db.connect()) {
            dialect = dialect(c);
        }
        runner = new StatementRunner(dialect);
    }

    @AfterAll
    void dropDatabase() {
        if (db != null) {
            db.close();
        }
    }

    // ---------------------------------------------------------------- claims

    @Test
    public final void a_row_lock_claim_takes_due_unfinished_rows_of_its_group_in_claim_order() throws Exception {
        QueueTable<?> t = newTable();
        RoleBinding<Record> b = payloadBinding(t, Form.ROW_LOCK).build();
        if (!dialect.supportsForm(Form.ROW_LOCK)) {
            assertThatThrownBy(() -> dialect.claimRowLock(b, ClaimShape.ROLES))
                    .isInstanceOf(DialectException.class)
                    .hasMessageContaining(t.getName());
            assertThatThrownBy(() -> dialect.validate(b)).isInstanceOf(DialectException.class);
            return;
        }
        List<Long> expected = claimOrderFixture(t);
        try (Connection c = db.connect()) {
            begin(c, b);
            List<Map<String, Object>> rows = claim(c, b, ClaimShape.ROLES, 10);
            assertThat(ids(rows)).containsExactlyElementsOf(expected);
            assertThat(rows).allSatisfy(r -> assertThat(number(r, "attempt")).isEqualTo(1L));
            commit(c, b);
        }
    }

    @Test
    public final void a_lease_claim_takes_the_first_claimable_rows_stamps_them_and_reports_the_attempt_as_it_was()
            throws Exception {
        QueueTable<?> t = newTable();
        RoleBinding<Record> b = payloadBinding(t, Form.LEASE).lease(t.LOCKED_UNTIL).build();
        List<Long> expected = claimOrderFixture(t);
        // a row leased to someone else until later is not claimable; one whose lease passed is
        long leased = insert(t, r -> r.group("a").locked(now.plusSeconds(60)));
        long expired = insert(t, r -> r.group("a").priority(9).locked(now.minusSeconds(60)));
        List<Long> claimable = new ArrayList<>(expected);
        claimable.add(expired);
        Instant until = now.plusSeconds(30);
        List<Map<String, Object>> rows;
        try (Connection c = db.connect()) {
            rows = leaseClaim(c, b, ClaimShape.ROLES, 3, until);
        }
        // the claim takes the first three in claim order, in whatever order the database returns them
        assertThat(ids(rows)).containsExactlyInAnyOrderElementsOf(claimable.subList(0, 3));
        assertThat(rows).allSatisfy(r -> assertThat(number(r, "attempt")).isEqualTo(1L));
        for (Long id : ids(rows)) {
            Map<String, Object> stored = stored(t, id);
            assertThat(number(stored, "attempt")).isEqualTo(2L);
            assertThat(instant(stored.get("locked_until"))).isEqualTo(until);
        }
        try (Connection c = db.connect()) {
            List<Map<String, Object>> rest = leaseClaim(c, b, ClaimShape.IDS, 10, until);
            assertThat(ids(rest)).containsExactlyInAnyOrderElementsOf(claimable.subList(3, claimable.size()));
        }
        assertThat(instant(stored(t, leased).get("locked_until"))).isEqualTo(now.plusSeconds(60));
    }

    @Test
    public final void two_concurrent_claims_take_disjoint_rows() throws Exception {
        for (Form form : new Form[] {Form.ROW_LOCK, Form.LEASE}) {
            if (!dialect.supportsForm(form)) {
                continue;
            }
            QueueTable<?> t = newTable();
            RoleBinding.Builder<Record> builder = payloadBinding(t, form);
            RoleBinding<Record> b = form == Form.LEASE ? builder.lease(t.LOCKED_UNTIL).build() : builder.build();
            for (int i = 0; i < 8; i++) {
                insert(t, r -> r.group("a"));
            }
            try (Connection first = db.connect(); Connection second = db.connect()) {
                List<Long> a;
                List<Long> bIds;
                if (form == Form.ROW_LOCK) {
                    begin(first, b);
                    a = ids(claim(first, b, ClaimShape.IDS, 3));
                    begin(second, b);
                    bIds = ids(claim(second, b, ClaimShape.IDS, 3));
                    commit(second, b);
                    commit(first, b);
                } else {
                    a = ids(leaseClaim(first, b, ClaimShape.IDS, 3, now.plusSeconds(30)));
                    bIds = ids(leaseClaim(second, b, ClaimShape.IDS, 3, now.plusSeconds(30)));
                }
                assertThat(a).hasSize(3);
                assertThat(bIds).hasSize(3).doesNotContainAnyElementsOf(a);
            }
        }
    }

    @Test
    public final void a_settlement_with_a_stale_lease_token_changes_nothing() throws Exception {
        QueueTable<?> t = newTable();
        RoleBinding<Record> b = payloadBinding(t, Form.LEASE).lease(t.LOCKED_UNTIL).build();
        long id = insert(t, r -> r.group("a"));
        Instant until = now.plusSeconds(30);
        try (Connection c = db.connect()) {
            assertThat(ids(leaseClaim(c, b, ClaimShape.IDS, 1, until))).containsExactly(id);
            Instant stale = until.minusSeconds(5);
            Binds binds = new Binds().id(id).now(now).leaseHeld(stale).retryAt(now.plusSeconds(60))
                    .destination("dead").group("a");
            assertThat(update(c, dialect.ack(b), binds)).isZero();
            assertThat(update(c, dialect.drop(b), binds)).isZero();
            assertThat(update(c, dialect.retry(b).orElseThrow(), binds)).isZero();
            assertThat(update(c, dialect.retryAfter(b), binds)).isZero();
            assertThat(update(c, dialect.deadLetterToGroup(b), binds)).isZero();
            assertThat(update(c, dialect.leaseExtend(b), binds.leaseUntil(until.plusSeconds(30)))).isZero();
            Map<String, Object> row = stored(t, id);
            assertThat(row.get("processed_at")).isNull();
            assertThat(row.get("grp")).isEqualTo("a");
            assertThat(instant(row.get("locked_until"))).isEqualTo(until);

            binds.leaseHeld(until);
            assertThat(update(c, dialect.leaseExtend(b), binds.leaseUntil(until.plusSeconds(30)))).isEqualTo(1);
            binds.leaseHeld(until.plusSeconds(30));
            assertThat(update(c, dialect.ack(b), binds)).isEqualTo(1);
            assertThat(instant(stored(t, id).get("processed_at"))).isEqualTo(now);
        }
    }

    // ---------------------------------------------------------------- settlements

    @Test
    public final void retry_counts_the_attempt_under_a_row_lock_and_clears_the_lease_under_a_lease() throws Exception {
        QueueTable<?> t = newTable();
        if (dialect.supportsForm(Form.ROW_LOCK)) {
            RoleBinding<Record> b = payloadBinding(t, Form.ROW_LOCK).build();
            long id = insert(t, r -> r.group("a"));
            try (Connection c = db.connect()) {
                begin(c, b);
                assertThat(ids(claim(c, b, ClaimShape.IDS, 1))).containsExactly(id);
                assertThat(update(c, dialect.retry(b).orElseThrow(), new Binds().id(id))).isEqualTo(1);
                commit(c, b);
            }
            assertThat(number(stored(t, id), "attempt")).isEqualTo(2L);
        }
        RoleBinding<Record> lease = payloadBinding(t, Form.LEASE).lease(t.LOCKED_UNTIL).build();
        long id = insert(t, r -> r.group("b"));
        Instant until = now.plusSeconds(30);
        try (Connection c = db.connect()) {
            leaseClaim(c, lease, ClaimShape.IDS, 1, until, "b");
            assertThat(update(c, dialect.retry(lease).orElseThrow(), new Binds().id(id).leaseHeld(until)))
                    .isEqualTo(1);
            Map<String, Object> row = stored(t, id);
            assertThat(row.get("locked_until")).isNull();
            assertThat(number(row, "attempt")).isEqualTo(2L);
            assertThat(ids(leaseClaim(c, lease, ClaimShape.IDS, 1, until, "b"))).containsExactly(id);
        }
        RoleBinding<Record> advisory = payloadBinding(t, Form.ADVISORY).advisory("q-{id}").build();
        assertThat(dialect.retry(advisory)).isEmpty();
    }

    @Test
    public final void retry_after_hides_the_row_until_its_time_on_either_clock() throws Exception {
        QueueTable<?> t = newTable();
        RoleBinding<Record> host = payloadBinding(t, Form.LEASE).lease(t.LOCKED_UNTIL).build();
        long id = insert(t, r -> r.group("a"));
        Instant until = now.plusSeconds(30);
        try (Connection c = db.connect()) {
            leaseClaim(c, host, ClaimShape.IDS, 1, until);
            Instant later = now.plusSeconds(600);
            assertThat(update(c, dialect.retryAfter(host), new Binds().id(id).leaseHeld(until).retryAt(later)))
                    .isEqualTo(1);
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
            assertThat(update(c, dialect.retryAfter(dbClock),
                    new Binds().id(other).delay(Duration.ofMinutes(10)))).isEqualTo(1);
            Instant due = instant(stored(t, other).get("retry_after"));
            assertThat(due).isBetween(before.plus(Duration.ofMinutes(10)).minusSeconds(5),
                    Instant.now().plus(Duration.ofMinutes(10)).plusSeconds(5));
            assertThat(steps(dbClock, "c").candidates(c, 5)).isEmpty();
            assertThat(update(c, dialect.ack(dbClock), new Binds().id(other))).isEqualTo(1);
            assertThat(instant(stored(t, other).get("processed_at")))
                    .isBetween(before.minusSeconds(5), Instant.now().plusSeconds(5));
        }
    }

    @Test
    public final void ack_and_drop_mark_processed_at_or_delete_the_row() throws Exception {
        QueueTable<?> t = newTable();
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
            assertThat(update(c, dialect.ack(marks), new Binds().id(acked).now(now))).isEqualTo(1);
            assertThat(update(c, dialect.drop(marks), new Binds().id(discarded).now(now))).isEqualTo(1);
            assertThat(update(c, dialect.ack(deletes), new Binds().id(deleted))).isEqualTo(1);
            assertThat(update(c, dialect.drop(deletes), new Binds().id(dropped))).isEqualTo(1);
        }
        assertThat(instant(stored(t, acked).get("processed_at"))).isEqualTo(now);
        assertThat(instant(stored(t, discarded).get("processed_at"))).isEqualTo(now);
        assertThat(find(t, deleted)).isEmpty();
        assertThat(find(t, dropped)).isEmpty();
    }

    @Test
    public final void a_dead_letter_into_a_group_keeps_the_attempt() throws Exception {
        QueueTable<?> t = newTable();
        RoleBinding<Record> b = payloadBinding(t, Form.LEASE).lease(t.LOCKED_UNTIL).build();
        long id = insert(t, r -> r.group("a").attempt(5));
        Instant until = now.plusSeconds(30);
        try (Connection c = db.connect()) {
            leaseClaim(c, b, ClaimShape.IDS, 1, until);
            assertThat(update(c, dialect.deadLetterToGroup(b),
                    new Binds().id(id).leaseHeld(until).destination("escalated"))).isEqualTo(1);
        }
        Map<String, Object> row = stored(t, id);
        assertThat(row.get("grp")).isEqualTo("escalated");
        assertThat(number(row, "attempt")).isEqualTo(6L);
        assertThat(row.get("locked_until")).isNull();

        RoleBinding<Record> noGroup = RoleBinding.of(t, t.ID).payload(t.PAYLOAD).advisory("q-{id}").build();
        assertThatThrownBy(() -> dialect.deadLetterToGroup(noGroup))
                .isInstanceOf(DialectException.class)
                .hasMessageContaining(t.getName());
    }

    @Test
    public final void a_dead_letter_into_a_table_keeps_every_column() throws Exception {
        QueueTable<?> t = newTable();
        QueueTable<?> dead = newTable();
        RoleBinding<Record> b = payloadBinding(t, Form.LEASE).lease(t.LOCKED_UNTIL).build();
        long id = insert(t, r -> r.group("a").priority(3).key("k1").headers("{\"h\":\"v\"}")
                .payload(new byte[] {1, 2, 3}).note("keep me").attempt(4).due(now.minusSeconds(7)));
        Instant until = now.plusSeconds(30);
        Map<String, Object> before;
        try (Connection c = db.connect()) {
            leaseClaim(c, b, ClaimShape.IDS, 1, until);
            before = stored(t, id);
            List<Statement> move = dialect.deadLetterToTable(b, dead);
            assertThat(move).hasSize(2);
            begin(c, b);
            Binds binds = new Binds().id(id).leaseHeld(until);
            assertThat(update(c, move.get(0), binds)).isEqualTo(1);
            assertThat(update(c, move.get(1), binds)).isEqualTo(1);
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
        QueueTable<?> t = newTable();
        QueueTable<?> dead = newTable();
        RoleBinding<Record> b = payloadBinding(t, Form.ADVISORY).lastError(t.LAST_ERROR).advisory("q-{id}").build();
        long id = insert(t, r -> r.group("a"));
        try (Connection c = db.connect()) {
            Statement retry = dialect.retry(b).orElseThrow();
            assertThat(update(c, retry, new Binds().id(id).lastError("java.io.IOException: first"))).isEqualTo(1);
            assertThat(stored(t, id).get("last_error")).isEqualTo("java.io.IOException: first");
            assertThat(update(c, dialect.retryAfter(b), new Binds().id(id).retryAt(now.plusSeconds(60))
                    .lastError("java.io.IOException: second"))).isEqualTo(1);
            assertThat(stored(t, id).get("last_error")).isEqualTo("java.io.IOException: second");
            // a retry the handler chose, with no failure, keeps the error the row met last
            assertThat(update(c, retry, new Binds().id(id))).isEqualTo(1);
            assertThat(update(c, dialect.deadLetterToGroup(b), new Binds().id(id).destination("dead")))
                    .isEqualTo(1);
            assertThat(stored(t, id).get("last_error")).isEqualTo("java.io.IOException: second");
            assertThat(update(c, dialect.deadLetterToGroup(b), new Binds().id(id).destination("deader")
                    .lastError("java.io.IOException: third"))).isEqualTo(1);
            assertThat(update(c, dialect.ack(b), new Binds().id(id).now(now))).isEqualTo(1);
            Map<String, Object> row = stored(t, id);
            assertThat(row.get("grp")).isEqualTo("deader");
            assertThat(row.get("last_error")).isEqualTo("java.io.IOException: third");
            assertThat(instant(row.get("processed_at"))).isEqualTo(now);

            long dropped = insert(t, r -> r.group("a"));
            assertThat(update(c, dialect.drop(b), new Binds().id(dropped).now(now).lastError("undecodable")))
                    .isEqualTo(1);
            assertThat(stored(t, dropped).get("last_error")).isEqualTo("undecodable");

            long moved = insert(t, r -> r.group("a").note("keep me"));
            List<Statement> move = dialect.deadLetterToTable(b, dead);
            begin(c, b);
            for (Statement statement : move) {
                assertThat(update(c, statement, new Binds().id(moved).lastError("java.io.IOException: moved")))
                        .isEqualTo(1);
            }
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
                assertThat(update(c, dialect.retry(rowLock).orElseThrow(),
                        new Binds().id(locked).lastError("row lock"))).isEqualTo(1);
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
            Statement retry = dialect.retry(lease).orElseThrow();
            assertThat(update(c, retry, new Binds().id(leased).leaseHeld(until.minusSeconds(1)).lastError("late")))
                    .isZero();
            assertThat(update(c, retry, new Binds().id(leased).leaseHeld(until).lastError("lease"))).isEqualTo(1);
        }
        assertThat(stored(t, leased)).containsEntry("last_error", "lease").containsEntry("locked_until", null);
    }

    // ---------------------------------------------------------------- advisory locks

    @Test
    public final void advisory_locks_lock_pass_over_held_keys_and_release() throws Exception {
        QueueTable<?> t = newTable();
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
        QueueTable<?> t = newTable();
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
        QueueTable<?> t = newTable();
        RoleBinding<Record> b = payloadBinding(t, Form.ADVISORY).advisory("q-{id}").build();
        long id = insert(t, r -> r.group("a"));
        Binds key = new Binds().key("q-" + id);
        try (LiveDatabase other = LiveDatabase.create(engine(), getClass().getSimpleName() + "_other");
                Connection there = other.connect(); Connection here = db.connect()) {
            // the same key, taken as the dialect takes it, by a session of another database
            Optional<SqliteKeyRegistry.Hold> hold = Optional.empty();
            if (dialect.advisoryLock(b).isPresent()) {
                assertThat(answer(there, dialect.advisoryLock(b).get(), key)).isTrue();
            } else {
                hold = SqliteKeyRegistry.process().tryTake(SqliteKeyRegistry.databaseOf(there), "q-" + id);
                assertThat(hold).isPresent();
            }
            try {
                assertThat(candidateIds(steps(b, "a").candidates(here, 10))).containsExactly(id);
                if (dialect.advisoryLock(b).isPresent()) {
                    assertThat(answer(here, dialect.advisoryLock(b).get(), key)).isTrue();
                    assertThat(answer(here, dialect.advisoryUnlock(b).get(), key)).isTrue();
                }
            } finally {
                hold.ifPresent(SqliteKeyRegistry.Hold::release);
            }
        }
    }

    @Test
    public final void a_lock_and_take_holds_the_key_of_the_row_it_took_and_of_no_row_it_left() throws Exception {
        QueueTable<?> t = newTable();
        RoleBinding<Record> counted = payloadBinding(t, Form.ADVISORY).advisory("q-{id}").build();
        assumeTrue(dialect.advisoryLockAndTake(counted, ClaimShape.ROLES).isPresent(),
                "the dialect takes a key and its row in one statement");
        RoleBinding<Record> uncounted = RoleBinding.of(t, t.ID).group(t.GRP).priority(t.PRIORITY)
                .retryAfter(t.RETRY_AFTER).processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).advisory("q-{id}").build();
        for (RoleBinding<Record> b : List.of(counted, uncounted)) {
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

    @Test
    public final void a_take_after_a_release_that_has_not_committed_waits_for_the_commit_and_leaves_the_row()
            throws Exception {
        QueueTable<?> t = newTable();
        RoleBinding<Record> counted = payloadBinding(t, Form.ADVISORY).advisory("q-{id}").build();
        assumeTrue(dialect.advisoryLockAndTake(counted, ClaimShape.ROLES).isPresent(),
                "the dialect takes a key and its row in one statement");
        RoleBinding<Record> uncounted = RoleBinding.of(t, t.ID).group(t.GRP).priority(t.PRIORITY)
                .retryAfter(t.RETRY_AFTER).processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).advisory("q-{id}").build();
        for (RoleBinding<Record> b : List.of(counted, uncounted)) {
            long id = insert(t, r -> r.group("a"));
            ClaimSequence<Map<String, Object>> steps = steps(b, "a");
            ClaimSequence.Candidate candidate = new ClaimSequence.Candidate(id, "q-" + id);
            Statement ackAndUnlock = dialect.advisorySettleAndUnlock(b, dialect.ack(b)).orElseThrow();
            var taker = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor();
            try (Connection settler = db.connect(); Connection other = db.connect(); Connection observer = db.connect()) {
                assertThat(ids(steps.lockAndTake(settler, candidate))).containsExactly(id);
                // the settlement has released the key and not committed: its commit is still to be seen
                settler.setAutoCommit(false);
                assertThat(answer(settler, ackAndUnlock, new Binds().id(id).now(now).key(candidate.key()))).isTrue();
                var take = taker.submit(() -> steps.lockAndTake(other, candidate));
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                        .until(() -> take.isDone() || sessionsWaitingForALock(observer) > 0);
                assertThat(take.isDone()).as("the take waits for the settlement's commit").isFalse();
                settler.commit();
                assertThat(take.get(10, java.util.concurrent.TimeUnit.SECONDS)).isEmpty();
                assertThat(answer(other, dialect.advisoryUnlock(b).orElseThrow(), new Binds().key(candidate.key())))
                        .as("the take that left the row left its key").isFalse();
            } finally {
                taker.shutdownNow();
            }
        }
    }

    /** How many sessions of the server wait for a row lock now. */
    private long sessionsWaitingForALock(Connection observer) throws SQLException {
        String sql = switch (engine()) {
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

    // ---------------------------------------------------------------- FIFO groups

    @Test
    public final void a_fifo_group_has_one_row_in_work_at_a_time_in_claim_order() throws Exception {
        for (Form form : new Form[] {Form.ROW_LOCK, Form.LEASE}) {
            QueueTable<?> t = newTable();
            RoleBinding.Builder<Record> builder = RoleBinding.of(t, t.ID)
                    .fifoGroup(t.GRP)
                    .priority(t.PRIORITY)
                    .retryAfter(t.RETRY_AFTER)
                    .attempt(t.ATTEMPT)
                    .processedAt(t.PROCESSED_AT)
                    .payload(t.PAYLOAD);
            RoleBinding<Record> b = form == Form.LEASE ? builder.lease(t.LOCKED_UNTIL).build() : builder.build();
            if (!dialect.supportsForm(form)) {
                assertThatThrownBy(() -> dialect.validate(b)).isInstanceOf(DialectException.class);
                continue;
            }
            long head = insert(t, r -> r.group("crm").priority(1));
            long next = insert(t, r -> r.group("crm").priority(1));
            long elsewhere = insert(t, r -> r.group("erp").priority(5));
            Instant until = now.plusSeconds(30);
            try (Connection first = db.connect(); Connection second = db.connect()) {
                if (form == Form.ROW_LOCK) {
                    begin(first, b);
                    assertThat(ids(claim(first, b, ClaimShape.IDS, 5, "crm"))).containsExactly(head);
                    begin(second, b);
                    assertThat(claim(second, b, ClaimShape.IDS, 5, "crm")).isEmpty();
                    assertThat(ids(claim(second, b, ClaimShape.IDS, 5, "erp"))).containsExactly(elsewhere);
                    commit(second, b);
                    assertThat(update(first, dialect.ack(b), new Binds().id(head).now(now))).isEqualTo(1);
                    commit(first, b);
                    begin(second, b);
                    assertThat(ids(claim(second, b, ClaimShape.IDS, 5, "crm"))).containsExactly(next);
                    commit(second, b);
                } else {
                    assertThat(ids(leaseClaim(first, b, ClaimShape.IDS, 5, until, "crm"))).containsExactly(head);
                    assertThat(leaseClaim(second, b, ClaimShape.IDS, 5, until, "crm")).isEmpty();
                    // a delayed retry moves the head behind the rows due before it
                    assertThat(update(first, dialect.retryAfter(b),
                            new Binds().id(head).leaseHeld(until).retryAt(now.plusSeconds(600)))).isEqualTo(1);
                    assertThat(ids(leaseClaim(second, b, ClaimShape.IDS, 5, until, "crm"))).containsExactly(next);
                    assertThat(leaseClaim(first, b, ClaimShape.IDS, 5, until, "crm")).isEmpty();
                    // a row that comes in ahead of the row in work becomes the head, and waits for it
                    long ahead = insert(t, r -> r.group("crm").priority(0));
                    assertThat(leaseClaim(first, b, ClaimShape.IDS, 5, until, "crm")).isEmpty();
                    assertThat(update(second, dialect.ack(b), new Binds().id(next).now(now).leaseHeld(until)))
                            .isEqualTo(1);
                    assertThat(ids(leaseClaim(first, b, ClaimShape.IDS, 5, until, "crm"))).containsExactly(ahead);
                }
            }
        }
    }

    // ---------------------------------------------------------------- reads and writes

    @Test
    public final void fetch_by_ids_reads_each_shape() throws Exception {
        QueueTable<?> t = newTable();
        RoleBinding<Record> b = RoleBinding.of(t, t.ID)
                .group(t.GRP)
                .partitionKey(t.PARTITION_KEY)
                .attempt(t.ATTEMPT)
                .headers(t.HEADERS)
                .payload(t.PAYLOAD)
                .lease(t.LOCKED_UNTIL)
                .build();
        long one = insert(t, r -> r.group("a").key("k").headers("{}").payload(new byte[] {7}).attempt(3));
        long two = insert(t, r -> r.group("a").note("n"));
        try (Connection c = db.connect()) {
            Binds binds = new Binds().ids(List.of(one, two));
            List<Map<String, Object>> roles = query(c, dialect.fetchByIds(b, ClaimShape.ROLES, 2, false), binds);
            Map<String, Object> first = byId(roles, one);
            assertThat(first.keySet()).containsExactlyInAnyOrder("id", "partition_key", "attempt", "headers",
                    "payload");
            assertThat(first.get("partition_key")).isEqualTo("k");
            assertThat((byte[]) first.get("payload")).containsExactly(7);
            assertThat(number(first, "attempt")).isEqualTo(3L);
            List<Map<String, Object>> stamped = query(c, dialect.fetchByIds(b, ClaimShape.ROWS, 2, true), binds);
            assertThat(number(byId(stamped, one), "attempt")).isEqualTo(2L);
            assertThat(byId(stamped, two).get("note")).isEqualTo("n");
            assertThat(byId(stamped, two).keySet()).hasSize(t.fields().length);
            List<Map<String, Object>> idsOnly = query(c, dialect.fetchByIds(b, ClaimShape.IDS, 1, false),
                    new Binds().ids(List.of(two)));
            assertThat(idsOnly).hasSize(1);
            assertThat(idsOnly.get(0).keySet()).containsExactly("id");
            assertThat(number(idsOnly.get(0), "id")).isEqualTo(two);
        }
    }

    @Test
    public final void the_insert_writes_the_binding_columns_and_leaves_generated_ones_to_the_database()
            throws Exception {
        QueueTable<?> t = newTable();
        RoleBinding<Record> b = payloadBinding(t, Form.LEASE).lease(t.LOCKED_UNTIL).partitionKey(t.PARTITION_KEY)
                .build();
        Statement insert = dialect.insert(b);
        List<String> columns = b.insertColumns().stream().map(f -> f.getName()).toList();
        assertThat(columns).containsExactly("grp", "partition_key", "payload");
        try (Connection c = db.connect()) {
            assertThat(update(c, insert, new Binds().values(List.of("emails", "k", new byte[] {9})))).isEqualTo(1);
        }
        List<Map<String, Object>> rows = rows(t);
        assertThat(rows).hasSize(1);
        Map<String, Object> row = rows.get(0);
        assertThat(row.get("grp")).isEqualTo("emails");
        assertThat(number(row, "attempt")).isEqualTo(1L);
        assertThat(number(row, "priority")).isZero();
        assertThat(row.get("retry_after")).isNotNull();
        assertThat(row.get("locked_until")).isNull();
    }

    // ---------------------------------------------------------------- transactions

    @Test
    public final void every_opening_the_dialect_takes_runs_a_claim_and_the_others_are_refused() throws Exception {
        List<Opening> openings = new ArrayList<>(List.of(Isolation.values()));
        openings.addAll(List.of(SqliteMode.values()));
        int opened = 0;
        for (Opening opening : openings) {
            QueueTable<?> t = newTable();
            RoleBinding.Builder<Record> builder = payloadBinding(t, Form.LEASE).lease(t.LOCKED_UNTIL);
            RoleBinding<Record> b = opening instanceof Isolation level
                    ? builder.isolation(level).build()
                    : builder.sqliteMode((SqliteMode) opening).build();
            try {
                dialect.validate(b);
            } catch (DialectException refused) {
                assertThat(refused).hasMessageContaining(t.getName());
                assertThatThrownBy(() -> dialect.transactionOpening(b)).isInstanceOf(DialectException.class);
                continue;
            }
            long id = insert(t, r -> r.group("a"));
            try (Connection c = db.connect()) {
                assertThat(ids(leaseClaim(c, b, ClaimShape.IDS, 1, now.plusSeconds(30)))).containsExactly(id);
            }
            opened++;
        }
        assertThat(opened).as("openings taken by " + dialect.name()).isPositive();
    }

    // ================================================================ fixture

    /** A new empty queue table. */
    protected QueueTable<?> newTable() {
        String name = "q" + TABLES.incrementAndGet();
        db.execute(createTable(name));
        @SuppressWarnings({"unchecked", "rawtypes"})
        QueueTable<?> table = new QueueTable(name, timeType());
        return table;
    }

    /** A payload-mode binding of every ordering role, in {@code form} (the caller adds the lease or key). */
    protected RoleBinding.Builder<Record> payloadBinding(QueueTable<?> t, Form form) {
        return RoleBinding.of(t, t.ID)
                .group(t.GRP)
                .priority(t.PRIORITY)
                .retryAfter(t.RETRY_AFTER)
                .attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT)
                .payload(t.PAYLOAD);
    }

    /**
     * Rows of group "a" and "b", some claimable and some not; returns the claimable ones of "a" in claim
     * order (priority, then retry_after, then id).
     */
    private List<Long> claimOrderFixture(QueueTable<?> t) {
        long late = insert(t, r -> r.group("a").priority(5).due(now.minusSeconds(10)));
        long urgent = insert(t, r -> r.group("a").priority(1).due(now.minusSeconds(5)));
        long earlier = insert(t, r -> r.group("a").priority(5).due(now.minusSeconds(20)));
        long sameTimeHigherId = insert(t, r -> r.group("a").priority(5).due(now.minusSeconds(10)));
        insert(t, r -> r.group("a").priority(0).due(now.plusSeconds(60)));
        insert(t, r -> r.group("a").priority(0).due(now.minusSeconds(60)).processed(now.minusSeconds(30)));
        insert(t, r -> r.group("b").priority(0).due(now.minusSeconds(60)));
        return List.of(urgent, earlier, late, sameTimeHigherId);
    }

    /** What one row holds, set through a small builder. */
    protected final class Row {
        final Map<String, Object> values = new LinkedHashMap<>();

        Row group(String group) {
            values.put("grp", group);
            return this;
        }

        Row priority(int priority) {
            values.put("priority", priority);
            return this;
        }

        Row key(String key) {
            values.put("partition_key", key);
            return this;
        }

        Row due(Instant at) {
            values.put("retry_after", time(at));
            return this;
        }

        Row attempt(int attempt) {
            values.put("attempt", attempt);
            return this;
        }

        Row processed(Instant at) {
            values.put("processed_at", time(at));
            return this;
        }

        Row locked(Instant until) {
            values.put("locked_until", time(until));
            return this;
        }

        Row headers(String json) {
            values.put("headers", json);
            return this;
        }

        Row payload(byte[] bytes) {
            values.put("payload", bytes);
            return this;
        }

        Row note(String note) {
            values.put("note", note);
            return this;
        }
    }

    /** Inserts a row due a minute ago unless the row says otherwise, and returns its id. */
    protected long insert(QueueTable<?> t, Consumer<Row> fill) {
        Row row = new Row();
        row.due(now.minusSeconds(60));
        fill.accept(row);
        try (Connection c = db.connect()) {
            var dsl = DSL.using(c, dialect.sqlDialect(), new Settings().withExecuteLogging(false));
            Map<org.jooq.Field<?>, Object> values = new LinkedHashMap<>();
            row.values.forEach((column, value) -> values.put(t.field(column), value));
            var inserted = dsl.insertInto(t).set(values).returning(t.ID).fetchOne();
            return inserted.get(t.ID);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An instant in the time type of this database's columns. */
    protected Object time(Instant instant) {
        Class<?> type = timeType().getType();
        if (type == LocalDateTime.class) {
            return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
        }
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    /** Reads back a time column as an instant, whatever JDBC type the driver returned. */
    protected Instant instant(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof java.sql.Timestamp ts) {
            return dialect.sqlDialect().family() == SQLDialect.POSTGRES
                    ? ts.toInstant()
                    : ts.toLocalDateTime().toInstant(ZoneOffset.UTC);
        }
        if (value instanceof OffsetDateTime odt) {
            return odt.toInstant();
        }
        if (value instanceof LocalDateTime ldt) {
            return ldt.toInstant(ZoneOffset.UTC);
        }
        if (value instanceof String text) {
            return SqliteTime.parse(text).toInstant();
        }
        throw new IllegalArgumentException("not a time: " + value.getClass());
    }

    // ================================================================ running statements

    /** Opens the claim transaction the binding declares. */
    protected void begin(Connection c, RoleBinding<?> b) throws SQLException {
        TransactionOpening opening = dialect.transactionOpening(b);
        if (opening.explicit()) {
            c.setAutoCommit(true);
            opening.sql().ifPresent(sql -> run(c, sql));
        } else {
            c.setAutoCommit(false);
            opening.sql().ifPresent(sql -> run(c, sql));
        }
    }

    protected void commit(Connection c, RoleBinding<?> b) throws SQLException {
        if (dialect.transactionOpening(b).explicit()) {
            run(c, "COMMIT");
        } else {
            c.commit();
            c.setAutoCommit(true);
        }
    }

    /**
     * The runtime's claim steps ({@link ClaimSequence}) of {@code b}'s queue of {@code group}, its statements
     * built as a subscription builds them; its candidates and takes run at this suite's "now".
     */
    protected ClaimSequence<Map<String, Object>> steps(RoleBinding<?> b, String group) {
        return runner.steps(b, ClaimShape.ROLES, group, now);
    }

    /** Runs a row lock claim (after the FIFO guard, where there is one) in the open transaction. */
    protected List<Map<String, Object>> claim(Connection c, RoleBinding<?> b, ClaimShape shape, int limit)
            throws SQLException {
        return claim(c, b, shape, limit, "a");
    }

    protected List<Map<String, Object>> claim(Connection c, RoleBinding<?> b, ClaimShape shape, int limit,
            String group) throws SQLException {
        return runner.claimInTransaction(c, b, shape, new StatementRunner.ClaimAt(group, now, limit, null));
    }

    protected List<Map<String, Object>> leaseClaim(Connection c, RoleBinding<?> b, ClaimShape shape, int limit,
            Instant until) throws SQLException {
        return leaseClaim(c, b, shape, limit, until, "a");
    }

    private List<Map<String, Object>> leaseClaimAt(Connection c, RoleBinding<?> b, Instant at, Instant until)
            throws SQLException {
        return leaseClaim(c, b, ClaimShape.IDS, 10, until, "a", at);
    }

    protected List<Map<String, Object>> leaseClaim(Connection c, RoleBinding<?> b, ClaimShape shape, int limit,
            Instant until, String group) throws SQLException {
        return leaseClaim(c, b, shape, limit, until, group, now);
    }

    /**
     * A whole lease claim: its transaction, then the runtime's steps (the guard, the claim, the stamp where the
     * claim does not stamp its rows, asserted to write each row), the commit.
     */
    private List<Map<String, Object>> leaseClaim(Connection c, RoleBinding<?> b, ClaimShape shape, int limit,
            Instant until, String group, Instant at) throws SQLException {
        begin(c, b);
        try {
            List<Map<String, Object>> rows = runner.claimInTransaction(c, b, shape,
                    new StatementRunner.ClaimAt(group, at, limit, until));
            commit(c, b);
            return rows;
        } catch (SQLException | RuntimeException e) {
            rollback(c, b);
            throw e;
        }
    }

    private void rollback(Connection c, RoleBinding<?> b) throws SQLException {
        if (dialect.transactionOpening(b).explicit()) {
            try {
                run(c, "ROLLBACK");
            } catch (IllegalStateException ignored) {
                // the failure ended the transaction already
            }
        } else {
            c.rollback();
            c.setAutoCommit(true);
        }
    }

    /** The advisory take of one row through the runtime's steps, fetching it where the take does not return it. */
    protected List<Map<String, Object>> take(Connection c, RoleBinding<?> b, long id) throws SQLException {
        return steps(b, "a").take(c, id);
    }

    protected List<Map<String, Object>> query(Connection c, Statement statement, Binds binds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(statement.sql())) {
            StatementBinder.bind(ps, statement, binds, dialect);
            if (!ps.execute()) {
                return List.of();
            }
            return read(ps.getResultSet());
        }
    }

    protected int update(Connection c, Statement statement, Binds binds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(statement.sql())) {
            StatementBinder.bind(ps, statement, binds, dialect);
            return ps.executeUpdate();
        }
    }

    /** A statement that answers one boolean-like value. */
    protected boolean answer(Connection c, Statement statement, Binds binds) throws SQLException {
        List<Map<String, Object>> rows = query(c, statement, binds);
        assertThat(rows).hasSize(1);
        Object value = rows.get(0).values().iterator().next();
        if (value instanceof Boolean bool) {
            return bool;
        }
        return value != null && ((Number) value).longValue() == 1L;
    }

    protected void run(Connection c, String sql) {
        try (java.sql.Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    private static List<Map<String, Object>> read(ResultSet rs) throws SQLException {
        try (rs) {
            ResultSetMetaData meta = rs.getMetaData();
            List<Map<String, Object>> rows = new ArrayList<>();
            while (rs.next()) {
                Map<String, Object> row = new LinkedHashMap<>();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    row.put(meta.getColumnLabel(i).toLowerCase(Locale.ROOT), rs.getObject(i));
                }
                rows.add(row);
            }
            return rows;
        }
    }

    protected Map<String, Object> stored(Table<?> t, long id) throws SQLException {
        return find(t, id).orElseThrow(() -> new AssertionError("no row " + id + " in " + t.getName()));
    }

    protected Optional<Map<String, Object>> find(Table<?> t, long id) throws SQLException {
        try (Connection c = db.connect();
                PreparedStatement ps = c.prepareStatement("SELECT * FROM " + t.getName() + " WHERE id = ?")) {
            ps.setLong(1, id);
            ps.execute();
            return read(ps.getResultSet()).stream().findFirst();
        }
    }

    protected List<Map<String, Object>> rows(Table<?> t) throws SQLException {
        try (Connection c = db.connect();
                PreparedStatement ps = c.prepareStatement("SELECT * FROM " + t.getName() + " ORDER BY id")) {
            ps.execute();
            return read(ps.getResultSet());
        }
    }

    protected static List<Long> ids(List<Map<String, Object>> rows) {
        List<Long> ids = new ArrayList<>(rows.size());
        for (Map<String, Object> row : rows) {
            ids.add(number(row, "id"));
        }
        Set<Long> distinct = new HashSet<>(ids);
        assertThat(distinct).as("a claim returns each row once").hasSameSizeAs(ids);
        return ids;
    }

    /** The ids of advisory candidates, each asserted to come once. */
    protected static List<Long> candidateIds(List<ClaimSequence.Candidate> candidates) {
        List<Long> ids = new ArrayList<>(candidates.size());
        for (ClaimSequence.Candidate candidate : candidates) {
            assertThat(candidate.id()).as("id").isInstanceOf(Number.class);
            ids.add(((Number) candidate.id()).longValue());
        }
        assertThat(new HashSet<>(ids)).as("candidates name each row once").hasSameSizeAs(ids);
        return ids;
    }

    protected static Map<String, Object> byId(List<Map<String, Object>> rows, long id) {
        return rows.stream().filter(r -> number(r, "id") == id).findFirst().orElseThrow();
    }

    protected static long number(Map<String, Object> row, String column) {
        Object value = row.get(column);
        assertThat(value).as(column).isInstanceOf(Number.class);
        return ((Number) value).longValue();
    }
}
