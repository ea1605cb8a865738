package dev.tablequeue.dialect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.binding.SqliteMode;
import dev.tablequeue.dialect.Param.Kind;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import org.jooq.Record;
import org.jooq.SQLDialect;
import org.jooq.impl.SQLDataType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The text SQLite's statements render to; what each does is proven on a SQLite file by
 * {@link SqliteDialectContractIT} and the other SQLite tests. jOOQ quotes SQLite identifiers with
 * backticks, which SQLite accepts.
 */
class SqliteDialectTextTest {
    private static final String NOW = "strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')";

    private final QueueTable<OffsetDateTime> t = new QueueTable<>("email_jobs", SqliteQueues.TIME);
    private final SqliteDialect dialect = new SqliteDialect();

    private RoleBinding.Builder<Record> roles() {
        return RoleBinding.of(t, t.ID)
                .group(t.GRP)
                .priority(t.PRIORITY)
                .retryAfter(t.RETRY_AFTER)
                .attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT)
                .payload(t.PAYLOAD);
    }

    private RoleBinding<Record> fifo() {
        return RoleBinding.of(t, t.ID)
                .fifoGroup(t.GRP)
                .priority(t.PRIORITY)
                .retryAfter(t.RETRY_AFTER)
                .attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT)
                .payload(t.PAYLOAD)
                .lease(t.LOCKED_UNTIL)
                .build();
    }

    @Test
    void the_lease_claim_is_one_update_of_the_rows_a_claim_ordered_subquery_picks() {
        Statement claim = dialect.claimLease(roles().lease(t.LOCKED_UNTIL).build(), ClaimShape.ROLES);
        assertThat(claim.sql()).isEqualTo("update `email_jobs` set `locked_until` = ?, `attempt` = (`attempt` + 1)"
                + " where `id` in (select `id` from `email_jobs`"
                + " where (`grp` = ? and `retry_after` <= ? and `processed_at` is null"
                + " and (`locked_until` is null or `locked_until` <= ?))"
                + " order by `priority` asc, `retry_after` asc, `id` asc limit ?)"
                + " returning `id`, (`attempt` - 1) as `attempt`, `payload`,"
                + " `priority` as `tq_order_0`, `retry_after` as `tq_order_1`, `id` as `tq_order_2`");
        assertThat(claim.params()).extracting(Param::kind)
                .containsExactly(Kind.LEASE_UNTIL, Kind.GROUP, Kind.NOW, Kind.NOW, Kind.LIMIT);
        assertThat(dialect.claimLeaseStamps()).isTrue();
        // RETURNING follows no order: the runtime sorts the rows by the claim order values returned with them
        assertThat(dialect.claimLeaseInOrder()).isFalse();
    }

    @Test
    void the_fifo_lease_claim_takes_the_groups_head_while_it_is_due_and_unleased() {
        Statement claim = dialect.claimLease(fifo(), ClaimShape.IDS);
        assertThat(claim.sql()).isEqualTo("update `email_jobs` set `locked_until` = ?, `attempt` = (`attempt` + 1)"
                + " where (`id` = (select `id` from `email_jobs` where (`grp` = ? and `processed_at` is null)"
                + " order by `priority` asc, `retry_after` asc, `id` asc limit 1)"
                + " and `retry_after` <= ? and `processed_at` is null"
                + " and (`locked_until` is null or `locked_until` <= ?)"
                + " and (not exists (select 1 as `one` from `email_jobs` as `tq_held` where (`tq_held`.`grp` = ?"
                + " and `tq_held`.`processed_at` is null and `tq_held`.`locked_until` > ?))))"
                + " returning `id`");
        assertThat(claim.params()).extracting(Param::kind)
                .containsExactly(Kind.LEASE_UNTIL, Kind.GROUP, Kind.NOW, Kind.NOW, Kind.GROUP, Kind.NOW);
        assertThat(dialect.fifoGuard(fifo())).isEmpty();
    }

    @Test
    void the_lease_claim_reads_the_same_whatever_java_type_the_time_columns_have() {
        Statement text = dialect.claimLease(roles().lease(t.LOCKED_UNTIL).build(), ClaimShape.ROLES);
        for (var time : List.of(SQLDataType.LOCALDATETIME, SQLDataType.TIMESTAMPWITHTIMEZONE)) {
            @SuppressWarnings({"unchecked", "rawtypes"})
            QueueTable<?> other = new QueueTable("email_jobs", time);
            RoleBinding<Record> b = RoleBinding.of(other, other.ID).group(other.GRP).priority(other.PRIORITY)
                    .retryAfter(other.RETRY_AFTER).attempt(other.ATTEMPT).processedAt(other.PROCESSED_AT)
                    .payload(other.PAYLOAD).lease(other.LOCKED_UNTIL).build();
            assertThat(dialect.claimLease(b, ClaimShape.ROLES)).isEqualTo(text);
        }
    }

    @Test
    void advisory_candidates_are_the_first_due_rows_with_their_key_text_and_the_take_counts_the_attempt(
            @TempDir Path dir) throws SQLException {
        RoleBinding<Record> b = roles().advisory("jobs-{grp}-{id}").build();
        Statement candidates = dialect.advisoryCandidates(b);
        assertThat(candidates.sql()).isEqualTo("select `id`,"
                + " (? || coalesce(cast(`grp` as varchar), '') || ? || coalesce(cast(`id` as varchar), '')) as `tq_key`"
                + " from `email_jobs` where (`grp` = ? and `retry_after` <= ? and `processed_at` is null)"
                + " order by `priority` asc, `retry_after` asc, `id` asc limit ?");
        assertThat(candidates.params()).extracting(Param::kind)
                .containsExactly(Kind.CONSTANT, Kind.CONSTANT, Kind.GROUP, Kind.NOW, Kind.LIMIT);
        assertThat(candidates.params()).extracting(p -> p.constant()).containsExactly("jobs-", "-", null, null, null);
        assertThat(dialect.advisoryTake(b, ClaimShape.ROLES).sql()).isEqualTo("update `email_jobs`"
                + " set `attempt` = (`attempt` + 1)"
                + " where (`id` = ? and `grp` = ? and `retry_after` <= ? and `processed_at` is null)"
                + " returning `id`, (`attempt` - 1) as `attempt`, `payload`");
        assertThat(dialect.advisoryTakeReturnsRows(null)).isTrue();
        assertThat(dialect.advisoryLock(b)).isEmpty();
        assertThat(dialect.advisoryUnlock(b)).isEmpty();
        // no lock in the session: the process keeps the keys, per database file
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("keys.db"))) {
            assertThat(dialect.processKeys(c)).isPresent();
        }
    }

    @Test
    void an_advisory_take_without_an_attempt_column_selects_the_row_while_it_is_claimable() {
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).payload(t.PAYLOAD).advisory("jobs-{id}").build();
        assertThat(dialect.advisoryTake(b, ClaimShape.ROLES).sql())
                .isEqualTo("select `id`, `payload` from `email_jobs` where (`id` = ? and `grp` = ?)");
    }

    @Test
    void the_database_clock_is_strftime_in_sqlite_time_layout_and_a_delay_is_a_bound_modifier() {
        RoleBinding<Record> b = roles().advisory("jobs-{id}").databaseClock().build();
        assertThat(NOW).isEqualTo(SqliteTime.NOW_SQL);
        assertThat(dialect.advisoryCandidates(b).sql()).contains("`retry_after` <= " + NOW + " and");
        assertThat(dialect.ack(b).sql())
                .isEqualTo("update `email_jobs` set `processed_at` = " + NOW + " where `id` = ?");
        Statement retryAfter = dialect.retryAfter(b);
        assertThat(retryAfter.sql()).isEqualTo("update `email_jobs`"
                + " set `retry_after` = strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now', ?) where `id` = ?");
        assertThat(retryAfter.params()).extracting(Param::kind).containsExactly(Kind.DELAY, Kind.ID);
    }

    @Test
    void a_delay_binds_as_a_modifier_of_whole_milliseconds() {
        assertThat(dialect.delayValue(Duration.ofMillis(12_345))).isEqualTo("+12.345 seconds");
        assertThat(dialect.delayValue(Duration.ofHours(1))).isEqualTo("+3600.000 seconds");
        assertThat(dialect.delayValue(Duration.ZERO)).isEqualTo("+0.000 seconds");
        assertThat(dialect.delayValue(Duration.ofNanos(1_999_999))).isEqualTo("+0.001 seconds");
        assertThat(dialect.delayValue(Duration.ofMillis(-1_500))).isEqualTo("-1.500 seconds");
    }

    @Test
    void a_time_binds_as_sqlite_time_text_whatever_the_columns_java_type() {
        Instant at = Instant.parse("2026-11-30T04:00:00.123456789Z");
        String text = "2026-11-30T04:00:00.123+00:00";
        assertThat(dialect.timeValue(t.LOCKED_UNTIL, at)).isEqualTo(text);
        assertThat(dialect.timeValue(new QueueTable<>("x", SQLDataType.LOCALDATETIME).LOCKED_UNTIL, at))
                .isEqualTo(text);
        assertThat(dialect.timeValue(new QueueTable<>("x", SQLDataType.TIMESTAMPWITHTIMEZONE).LOCKED_UNTIL, at))
                .isEqualTo(text);
        assertThat(dialect.timeValue(null, at)).isEqualTo(text);
    }

    @Test
    void no_statement_carries_a_row_lock() {
        RoleBinding<Record> lease = roles().lease(t.LOCKED_UNTIL).build();
        RoleBinding<Record> fifo = fifo();
        RoleBinding<Record> advisory = roles().advisory("jobs-{id}").build();
        List<Statement> all = new java.util.ArrayList<>(List.of(
                dialect.claimLease(lease, ClaimShape.ROWS), dialect.claimLease(fifo, ClaimShape.ROWS),
                dialect.leaseStamp(lease, 3), dialect.leaseExtend(lease),
                dialect.advisoryCandidates(advisory), dialect.advisoryTake(advisory, ClaimShape.ROWS),
                dialect.fetchByIds(lease, ClaimShape.ROWS, 2, true), dialect.ack(lease), dialect.drop(lease),
                dialect.retry(lease).orElseThrow(), dialect.retryAfter(lease), dialect.deadLetterToGroup(lease),
                dialect.insert(lease)));
        all.addAll(dialect.deadLetterToTable(lease, new QueueTable<>("dead_jobs", SqliteQueues.TIME)));
        assertThat(all).allSatisfy(s -> assertThat(s.sql()).doesNotContainIgnoringCase("for update")
                .doesNotContainIgnoringCase("skip locked"));
    }

    @Test
    void a_publish_reads_a_generated_id_by_returning_it_once_per_row_since_the_driver_reports_no_batch_keys() {
        RoleBinding<Record> lease = roles().lease(t.LOCKED_UNTIL).build();
        QueueInserts inserts = dialect.inserts(lease);
        assertThat(inserts.statements()).hasSize(2).first().isSameAs(inserts.insert());
        assertThat(inserts.statements().get(1).purpose()).isEqualTo("insert returning id");
        assertThat(inserts.statements().get(1).sql()).isEqualTo(inserts.insert().sql() + " RETURNING `id`");
    }

    @Test
    void transactions_open_with_an_explicit_begin_in_the_declared_mode_and_immediate_by_default() {
        assertThat(dialect.transactionOpening(roles().lease(t.LOCKED_UNTIL).build()))
                .isEqualTo(new TransactionOpening(true, Optional.of("BEGIN IMMEDIATE")));
        for (SqliteMode mode : SqliteMode.values()) {
            RoleBinding<Record> b = roles().lease(t.LOCKED_UNTIL).sqliteMode(mode).build();
            assertThat(dialect.transactionOpening(b))
                    .isEqualTo(new TransactionOpening(true, Optional.of("BEGIN " + mode.name())));
        }
    }

    @Test
    void the_capabilities_say_one_claim_at_a_time_no_row_locks_and_no_notifications() {
        assertThat(dialect.name()).isEqualTo("sqlite");
        assertThat(dialect.sqlDialect()).isEqualTo(SQLDialect.SQLITE);
        assertThat(dialect.supportsForm(Form.ROW_LOCK)).isFalse();
        assertThat(dialect.supportsForm(Form.LEASE)).isTrue();
        assertThat(dialect.supportsForm(Form.ADVISORY)).isTrue();
        assertThat(dialect.claimsInParallel()).isFalse();
        assertThat(dialect.notifications().refuseListener()).hasValueSatisfying(reason -> assertThat(reason)
                .contains("needs a database with notifications").contains("sqlite has none"));
        assertThat(dialect.notifications().refuse("email_jobs")).isEqualTo(dialect.notifications().refuseListener());
        assertThat(dialect.notifications().statements("email_jobs")).isEmpty();
    }

    @Test
    void the_unique_insert_names_its_conflict_target_and_the_pending_predicate_and_returns_the_id() {
        QueueInserts pending = dialect.inserts(roles().uniqueKeyWhilePending(t.NOTE).build());

        // after the plain insert and its RETURNING form (a row without a key)
        assertThat(pending.statements()).extracting(Statement::purpose).startsWith("insert", "insert returning id");
        assertThat(pending.statements().get(2).sql()).endsWith(
                " on conflict (`note`) where `processed_at` is null do nothing returning `id`");
        // no FOR UPDATE, which jOOQ would render and SQLite does not take
        assertThat(pending.statements().get(3).sql())
                .isEqualTo("select `id` from `email_jobs` where (`note` = ? and `processed_at` is null)");
    }

}
