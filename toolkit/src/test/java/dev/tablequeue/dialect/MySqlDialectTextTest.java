package dev.tablequeue.dialect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.Param.Kind;
import java.sql.SQLException;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jooq.Record;
import org.jooq.impl.SQLDataType;
import org.junit.jupiter.api.Test;

/**
 * The text MySqlDialect renders for the claims, leases, advisory locks and FIFO guard, and the binds in
 * order. MariaDB's text differs from MySQL's only where jOOQ renders {@code FETCH NEXT n ROWS ONLY} for
 * {@code LIMIT n}, which MariaDB takes from 10.6, the dialect's floor. That every statement runs is
 * {@code MySqlDialectIT}'s part (in the it module).
 */
class MySqlDialectTextTest {
    private static final MySqlDialect MARIADB = MySqlDialect.forServer("MariaDB", "10.11.19-MariaDB-0+deb12u1");
    private static final MySqlDialect MYSQL = MySqlDialect.forServer("MySQL", "8.0.36");

    private final QueueTable<LocalDateTime> t = new QueueTable<>("jobs", SQLDataType.LOCALDATETIME(6));

    private RoleBinding.Builder<Record> ordered() {
        return RoleBinding.of(t, t.ID).group(t.GRP).priority(t.PRIORITY).retryAfter(t.RETRY_AFTER)
                .attempt(t.ATTEMPT).processedAt(t.PROCESSED_AT).payload(t.PAYLOAD);
    }

    @Test
    void a_row_lock_claim_bounds_a_lock_wait_in_whole_seconds_rounded_up() {
        LockWait wait = MARIADB.claims(ordered().build(), ClaimShape.ROLES, false).lockWait(Duration.ofMillis(1500));
        assertThat(wait.bound()).isEqualTo("SET SESSION innodb_lock_wait_timeout = 2");
        assertThat(wait.restore()).isEqualTo("SET SESSION innodb_lock_wait_timeout = DEFAULT");
        assertThat(wait.timedOut()).accepts(new SQLException("Lock wait timeout exceeded", "HY000", 1205))
                .rejects(new SQLException("Deadlock found", "40001", 1213));
    }

    @Test
    void the_row_lock_claim_selects_for_update_skip_locked_in_claim_order() {
        RoleBinding<Record> b = ordered().build();
        assertText(MARIADB.claimRowLock(b, ClaimShape.ROLES),
                "select `id`, `attempt`, `payload` from `jobs` where (`grp` = ? and `retry_after` <= ?"
                        + " and `processed_at` is null) order by `priority` asc,"
                        + " `retry_after` asc, `id` asc fetch next ? rows only for update skip locked",
                Kind.GROUP, Kind.NOW, Kind.LIMIT);
        assertText(MYSQL.claimRowLock(b, ClaimShape.ROLES),
                "select `id`, `attempt`, `payload` from `jobs` where (`grp` = ? and `retry_after` <= ?"
                        + " and `processed_at` is null) order by `priority` asc,"
                        + " `retry_after` asc, `id` asc limit ? for update skip locked",
                Kind.GROUP, Kind.NOW, Kind.LIMIT);
    }

    @Test
    void a_claim_binds_its_limit_whatever_the_limit() {
        QueueClaims claims = MARIADB.claims(ordered().build(), ClaimShape.ROLES, false);
        assertThat(claims.claim(5)).isSameAs(claims.claim(1)).isSameAs(claims.statements().get(0));
        assertThat(claims.claim(5).params()).extracting(Param::kind).contains(Kind.LIMIT);
    }

    @Test
    void a_row_lock_claim_holds_the_rows_it_reads_past_but_a_fifo_claim_takes_one_row() {
        assertThat(MARIADB.rowLockClaimHoldsRowsItPasses(ordered().build())).isTrue();
        assertThat(MYSQL.rowLockClaimHoldsRowsItPasses(ordered().build())).isTrue();
        RoleBinding<Record> fifo = RoleBinding.of(t, t.ID).fifoGroup(t.GRP).retryAfter(t.RETRY_AFTER)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).build();
        assertThat(MARIADB.rowLockClaimHoldsRowsItPasses(fifo)).isFalse();
    }

    @Test
    void the_lease_claim_is_a_locking_select_and_the_stamp_an_update_of_its_ids() {
        RoleBinding<Record> b = ordered().lease(t.LOCKED_UNTIL).build();
        assertThat(MARIADB.claimLeaseStamps()).isFalse();
        assertText(MARIADB.claimLease(b, ClaimShape.ROLES),
                "select `id`, `attempt`, `payload` from `jobs` where (`grp` = ? and `retry_after` <= ?"
                        + " and `processed_at` is null and (`locked_until` is null or `locked_until` <= ?))"
                        + " order by `priority` asc, `retry_after` asc, `id` asc"
                        + " fetch next ? rows only for update skip locked",
                Kind.GROUP, Kind.NOW, Kind.NOW, Kind.LIMIT);
        assertThat(MARIADB.claimLease(b, ClaimShape.ROLES).purpose()).isEqualTo("lease claim");
        assertText(MARIADB.leaseStamp(b, 2),
                "update `jobs` set `locked_until` = ?, `attempt` = (`attempt` + 1) where `id` in (?, ?)",
                Kind.LEASE_UNTIL, Kind.ID, Kind.ID);
        assertText(MARIADB.fetchByIds(b, ClaimShape.ROLES, 2, true),
                "select `id`, (`attempt` - 1) as `attempt`, `payload` from `jobs` where `id` in (?, ?)",
                Kind.ID, Kind.ID);
        assertText(MARIADB.leaseExtend(b),
                "update `jobs` set `locked_until` = ? where (`id` = ? and `locked_until` = ?)",
                Kind.LEASE_UNTIL, Kind.ID, Kind.LEASE_HELD);
        assertSameBeyondLimit(MARIADB.claimLease(b, ClaimShape.ROLES), MYSQL.claimLease(b, ClaimShape.ROLES));
        assertSameBeyondLimit(MARIADB.leaseStamp(b, 2), MYSQL.leaseStamp(b, 2));
    }

    @Test
    void a_fifo_claim_answers_the_guard_then_takes_its_groups_head() {
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).fifoGroup(t.GRP).priority(t.PRIORITY)
                .retryAfter(t.RETRY_AFTER).attempt(t.ATTEMPT).processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).build();
        FifoGuard guard = MARIADB.fifoGuard(b).orElseThrow();
        assertThat(guard.answers()).isTrue();
        assertText(guard.statement(),
                "select (not exists (select 1 as `one` from `jobs` where (`grp` = ? and `processed_at` is null"
                        + " and `id` not in (select `id` from `jobs` where (`grp` = ? and `processed_at` is null)"
                        + " for update skip locked)))) as `tq_free`",
                Kind.GROUP, Kind.GROUP);
        assertText(MARIADB.claimRowLock(b, ClaimShape.IDS),
                "select `id` from `jobs` where (`id` = (select `id` from `jobs` where (`grp` = ?"
                        + " and `processed_at` is null) order by `priority` asc, `retry_after` asc,"
                        + " `id` asc fetch next 1 rows only) and `retry_after` <= ? and `processed_at` is null)"
                        + " for update skip locked",
                Kind.GROUP, Kind.NOW);
        assertSameBeyondLimit(MARIADB.claimRowLock(b, ClaimShape.IDS), MYSQL.claimRowLock(b, ClaimShape.IDS));
        assertSameBeyondLimit(guard.statement(), MYSQL.fifoGuard(b).orElseThrow().statement());

        RoleBinding<Record> lease = RoleBinding.of(t, t.ID).fifoGroup(t.GRP).lease(t.LOCKED_UNTIL)
                .payload(t.PAYLOAD).build();
        assertText(MARIADB.fifoGuard(lease).orElseThrow().statement(),
                "select (not exists (select 1 as `one` from `jobs` where (`grp` = ? and `id` not in"
                        + " (select `id` from `jobs` where `grp` = ? for update skip locked)))) as `tq_free`",
                Kind.GROUP, Kind.GROUP);
        assertThat(MARIADB.fifoGuard(ordered().build())).isEmpty();
    }

    @Test
    void advisory_keys_lock_the_lower_case_database_dot_key_or_its_sha256() {
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).retryAfter(t.RETRY_AFTER).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).advisory("jobs-{id}").build();
        String name = "if(char_length(concat(lower(database()), '.', %1$s)) > 64,"
                + " sha2(concat(lower(database()), '.', %1$s), 256), concat(lower(database()), '.', %1$s))";
        assertText(MARIADB.advisoryCandidates(b),
                "select `id`, concat(?, coalesce(cast(`id` as char), '')) as `tq_key` from `jobs` where (`grp` = ?"
                        + " and `retry_after` <= ? and `processed_at` is null and (is_free_lock("
                        + String.format(name, "?, coalesce(cast(`id` as char), '')") + ") = 1))"
                        + " order by `retry_after` asc, `id` asc fetch next ? rows only",
                Kind.CONSTANT, Kind.GROUP, Kind.NOW, Kind.CONSTANT, Kind.CONSTANT, Kind.CONSTANT, Kind.LIMIT);
        assertText(MARIADB.advisoryLock(b).orElseThrow(),
                "select get_lock(" + String.format(name, "?") + ", 0)", Kind.KEY, Kind.KEY, Kind.KEY);
        assertText(MARIADB.advisoryUnlock(b).orElseThrow(),
                "select release_lock(" + String.format(name, "?") + ")", Kind.KEY, Kind.KEY, Kind.KEY);
        assertThat(MARIADB.advisoryTakeReturnsRows(b)).isFalse();
        assertText(MARIADB.advisoryTake(b, ClaimShape.ROLES),
                "update `jobs` set `attempt` = (`attempt` + 1) where (`id` = ? and `grp` = ? and `retry_after` <= ?"
                        + " and `processed_at` is null)",
                Kind.ID, Kind.GROUP, Kind.NOW);
        assertSameBeyondLimit(MARIADB.advisoryCandidates(b), MYSQL.advisoryCandidates(b));
        assertSameBeyondLimit(MARIADB.advisoryLock(b).orElseThrow(), MYSQL.advisoryLock(b).orElseThrow());

        RoleBinding<Record> noAttempt = RoleBinding.of(t, t.ID).group(t.GRP).payload(t.PAYLOAD)
                .advisory("jobs-{id}").build();
        assertThat(MARIADB.advisoryTakeReturnsRows(noAttempt)).isTrue();
        assertText(MARIADB.advisoryTake(noAttempt, ClaimShape.ROLES),
                "select `id`, `payload` from `jobs` where (`id` = ? and `grp` = ?)", Kind.ID, Kind.GROUP);
    }

    @Test
    void the_database_clock_is_utc_timestamp_and_a_delay_adds_microseconds() {
        RoleBinding<Record> b = ordered().databaseClock().build();
        assertText(MARIADB.retryAfter(b),
                "update `jobs` set `retry_after` = timestampadd(microsecond, ?, utc_timestamp(6)),"
                        + " `attempt` = (`attempt` + 1) where `id` = ?",
                Kind.DELAY, Kind.ID);
        assertText(MARIADB.ack(b), "update `jobs` set `processed_at` = utc_timestamp(6) where `id` = ?", Kind.ID);
    }

    @Test
    void no_statement_leans_on_returning_or_on_a_limit_inside_an_in_subquery() {
        // jOOQ drops RETURNING on MySQL and emulates it on MariaDB in a way that fails when SET reads a
        // column; both servers refuse LIMIT in an IN subquery
        QueueTable<?> dead = new QueueTable<>("jobs_dead", SQLDataType.LOCALDATETIME(6));
        for (MySqlDialect dialect : List.of(MARIADB, MYSQL)) {
            for (RoleCombinations.Combination combination : RoleCombinations.of(t)) {
                for (Statement s : everyStatement(dialect, combination.binding(), dead)) {
                    String text = s.sql().toLowerCase(Locale.ROOT);
                    assertThat(text).as(dialect.name() + " " + combination.name() + ": " + s.purpose())
                            .doesNotContain("returning")
                            .doesNotContainPattern("\\bin \\(select [^()]*(\\([^()]*\\)[^()]*)*(limit|fetch next)");
                }
            }
        }
    }

    private static List<Statement> everyStatement(MySqlDialect d, RoleBinding<?> b, QueueTable<?> dead) {
        List<Statement> all = new ArrayList<>();
        for (ClaimShape shape : ClaimShape.values()) {
            switch (b.form()) {
                case ROW_LOCK -> all.add(d.claimRowLock(b, shape));
                case LEASE -> all.add(d.claimLease(b, shape));
                case ADVISORY -> all.add(d.advisoryTake(b, shape));
            }
            all.add(d.fetchByIds(b, shape, 3, true));
        }
        if (b.form() == Form.LEASE) {
            all.add(d.leaseStamp(b, 3));
            all.add(d.leaseExtend(b));
        }
        if (b.form() == Form.ADVISORY) {
            all.add(d.advisoryCandidates(b));
            d.advisoryLock(b).ifPresent(all::add);
            d.advisoryUnlock(b).ifPresent(all::add);
        }
        d.fifoGuard(b).ifPresent(g -> all.add(g.statement()));
        d.retry(b).ifPresent(all::add);
        all.add(d.ack(b));
        all.add(d.drop(b));
        all.addAll(d.deadLetterToTable(b, dead));
        all.add(d.insert(b));
        return all;
    }

    private static void assertText(Statement statement, String sql, Kind... params) {
        assertThat(statement.sql()).isEqualTo(sql);
        assertThat(statement.params()).extracting(Param::kind).containsExactly(params);
    }

    /** MySQL's text is MariaDB's with LIMIT for FETCH NEXT .. ROWS ONLY, with the same binds. */
    private static void assertSameBeyondLimit(Statement mariadb, Statement mysql) {
        assertThat(mysql.sql()).isEqualTo(mariadb.sql().replaceAll("fetch next (\\?|\\d+) rows only", "limit $1"));
        assertThat(mysql.params()).isEqualTo(mariadb.params());
    }

    @Test
    void the_unique_insert_updates_its_key_to_itself_on_a_duplicate_and_reads_the_holder_with_a_locking_read() {
        QueueInserts pending = MARIADB.inserts(ordered().uniqueKeyWhilePending(t.NOTE).build());

        assertThat(pending.statements()).extracting(Statement::sql).containsExactly(
                "insert into `jobs` (`grp`, `payload`, `note`) values (?, ?, ?)",
                "insert into `jobs` (`grp`, `payload`, `note`) values (?, ?, ?)"
                        + " on duplicate key update `note` = `note`",
                "select `id` from `jobs` where (`note` = ? and `processed_at` is null) for update");
    }

}
