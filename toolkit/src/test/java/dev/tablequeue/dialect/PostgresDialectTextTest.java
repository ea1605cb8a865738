package dev.tablequeue.dialect;

import dev.tablequeue.DialectException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tablequeue.binding.Isolation;
import dev.tablequeue.dialect.Param.Kind;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.binding.SqliteMode;
import dev.tablequeue.transport.LeadingInsert;
import java.sql.SQLException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/** The text PostgreSQL's statements render to; what each does is proven by {@link PostgresDialectIT}. */
class PostgresDialectTextTest {
    private static final String TS = "cast(? as timestamp(6) with time zone)";

    private final QueueTable<OffsetDateTime> t = new QueueTable<>("email_jobs", QueueTable.pgTime());
    private final PostgresDialect dialect = new PostgresDialect();

    private RoleBinding.Builder<Record> roles() {
        return RoleBinding.of(t, t.ID)
                .group(t.GRP)
                .priority(t.PRIORITY)
                .retryAfter(t.RETRY_AFTER)
                .attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT)
                .payload(t.PAYLOAD);
    }

    @Test
    void the_row_lock_claim_skips_locked_rows_in_claim_order() {
        Statement claim = dialect.claimRowLock(roles().build(), ClaimShape.ROLES);
        assertThat(claim.sql()).isEqualTo("select \"id\", \"attempt\", \"payload\" from \"email_jobs\""
                + " where (\"grp\" = ? and \"retry_after\" <= " + TS + " and \"processed_at\" is null)"
                + " order by \"priority\" asc, \"retry_after\" asc, \"id\" asc"
                + " fetch next ? rows only for update skip locked");
        assertThat(claim.params()).extracting(Param::kind).containsExactly(Kind.GROUP, Kind.NOW, Kind.LIMIT);
        // PostgreSQL locks the rows the claim returns, after it filters them: nothing it reads past stays held
        assertThat(dialect.rowLockClaimHoldsRowsItPasses(roles().build())).isFalse();
    }

    @Test
    void each_limit_a_claim_runs_is_written_into_a_text_of_its_own_and_kept() {
        QueueClaims claims = dialect.claims(roles().lease(t.LOCKED_UNTIL).build(), ClaimShape.ROLES, false);
        Statement bound = dialect.claimLease(roles().lease(t.LOCKED_UNTIL).build(), ClaimShape.ROLES);
        Statement five = claims.claim(5);
        assertThat(five.sql()).isEqualTo(bound.sql().replace("fetch next ? rows only", "fetch next 5 rows only"));
        assertThat(five.params()).extracting(Param::kind).containsExactly(Kind.GROUP, Kind.NOW, Kind.NOW,
                Kind.LEASE_UNTIL);
        assertThat(claims.claim(5)).isSameAs(five);
        // what the check and a start prepare: the claim with its limit bound
        assertThat(claims.statements().get(0)).isEqualTo(bound);
        // a FIFO claim takes its group's head, and has no limit to write
        QueueClaims fifo = dialect.claims(RoleBinding.of(t, t.ID).fifoGroup(t.GRP).retryAfter(t.RETRY_AFTER)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).build(), ClaimShape.ROLES, false);
        assertThat(fifo.claim(5)).isSameAs(fifo.claim(1)).isSameAs(fifo.statements().get(0));
    }

    @Test
    void a_claim_in_key_order_takes_a_row_only_where_no_unfinished_row_of_its_group_and_key_comes_before_it() {
        Statement claim = dialect.claimRowLock(roles().partitionKey(t.PARTITION_KEY).build().inKeyOrder(),
                ClaimShape.IDS);
        assertThat(claim.sql()).isEqualTo("select \"id\" from \"email_jobs\""
                + " where (\"grp\" = ? and \"retry_after\" <= " + TS + " and \"processed_at\" is null"
                + " and (not exists (select 1 as \"one\" from \"email_jobs\" as \"tq_before\""
                + " where (\"tq_before\".\"partition_key\" = \"email_jobs\".\"partition_key\""
                + " and \"tq_before\".\"id\" < \"email_jobs\".\"id\" and \"tq_before\".\"grp\" = ?"
                + " and \"tq_before\".\"processed_at\" is null))))"
                + " order by \"priority\" asc, \"retry_after\" asc, \"id\" asc"
                + " fetch next ? rows only for update skip locked");
        assertThat(claim.params()).extracting(Param::kind)
                .containsExactly(Kind.GROUP, Kind.NOW, Kind.GROUP, Kind.LIMIT);
    }

    @Test
    void the_lease_claim_is_one_statement_that_locks_stamps_and_returns_the_attempt_as_it_was_in_claim_order() {
        Statement claim = dialect.claimLease(roles().lease(t.LOCKED_UNTIL).build(), ClaimShape.ROLES);
        assertThat(claim.sql()).isEqualTo("with \"tq_claimed\"(\"tq_id\") as (select \"id\" from \"email_jobs\""
                + " where (\"grp\" = ? and \"retry_after\" <= " + TS + " and \"processed_at\" is null"
                + " and (\"locked_until\" is null or \"locked_until\" <= " + TS + "))"
                + " order by \"priority\" asc, \"retry_after\" asc, \"id\" asc"
                + " fetch next ? rows only for update skip locked),"
                + " \"tq_leased\" as (update \"email_jobs\" set \"locked_until\" = " + TS + ","
                + " \"attempt\" = (\"attempt\" + 1)"
                + " from \"tq_claimed\" where \"email_jobs\".\"id\" = \"tq_claimed\".\"tq_id\""
                + " returning \"id\", (\"attempt\" - 1) as \"attempt\", \"payload\", \"priority\" as \"tq_order_0\","
                + " \"retry_after\" as \"tq_order_1\", \"id\" as \"tq_order_2\")"
                + " select \"tq_leased\".\"id\", \"tq_leased\".\"attempt\", \"tq_leased\".\"payload\" from \"tq_leased\""
                + " order by \"tq_leased\".\"tq_order_0\" asc, \"tq_leased\".\"tq_order_1\" asc,"
                + " \"tq_leased\".\"tq_order_2\" asc");
        assertThat(claim.params()).extracting(Param::kind)
                .containsExactly(Kind.GROUP, Kind.NOW, Kind.NOW, Kind.LIMIT, Kind.LEASE_UNTIL);
        assertThat(dialect.claimLeaseStamps()).isTrue();
    }

    @Test
    void advisory_statements_lock_a_64_bit_hash_of_the_key() {
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT).payload(t.PAYLOAD)
                .advisory("jobs-{id}").build();
        assertThat(dialect.advisoryLock(b).orElseThrow().sql())
                .isEqualTo("select pg_try_advisory_lock(hashtextextended(?, 0))");
        assertThat(dialect.advisoryUnlock(b).orElseThrow().sql())
                .isEqualTo("select pg_advisory_unlock(hashtextextended(?, 0))");
        Statement candidates = dialect.advisoryCandidates(b);
        // the server's lock table is read once, in a CTE, and the rows pass over the keys it holds
        assertThat(candidates.sql()).startsWith("with \"tq_held_keys\" as (select \"tq_l\".\"classid\","
                        + " \"tq_l\".\"objid\" from pg_catalog.pg_locks as \"tq_l\" where")
                .contains(") select \"id\", (? || coalesce(cast(\"id\" as varchar), '')) as \"tq_key\"")
                .contains("not exists (select 1 as \"one\" from \"tq_held_keys\" where")
                .doesNotContain("exists (select 1 from pg_catalog.pg_locks")
                // a lock of another database on the server does not hold a row of this one back
                .contains("\"tq_l\".\"database\" = (select oid from pg_catalog.pg_database where datname"
                        + " = current_database())");
        assertThat(candidates.params()).extracting(p -> p.constant()).contains("jobs-");
        assertThat(dialect.advisoryTake(b, ClaimShape.ROLES).sql()).isEqualTo("update \"email_jobs\""
                + " set \"attempt\" = (\"attempt\" + 1) where (\"id\" = ? and \"grp\" = ?)"
                + " returning \"id\", (\"attempt\" - 1) as \"attempt\", \"payload\"");
    }

    @Test
    void the_lock_and_take_counts_the_attempt_only_where_it_locked_and_releases_a_key_whose_row_it_left() {
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT).payload(t.PAYLOAD)
                .advisory("jobs-{id}").build();
        Statement both = dialect.advisoryLockAndTake(b, ClaimShape.ROLES).orElseThrow();
        assertThat(both.sql()).isEqualTo("with \"tq_lock\" as (select pg_try_advisory_lock(hashtextextended(?, 0))"
                + " as \"tq_locked\"), \"tq_taken\" as (update \"email_jobs\" set \"attempt\" = (\"attempt\" + 1)"
                + " from \"tq_lock\" where (\"tq_lock\".\"tq_locked\" and \"id\" = ? and \"grp\" = ?)"
                + " returning \"id\", (\"attempt\" - 1) as \"attempt\", \"payload\"),"
                + " \"tq_back\" as (select pg_advisory_unlock(hashtextextended(?, 0)) from \"tq_lock\""
                + " where \"tq_locked\" and not exists (select 1 from \"tq_taken\"))"
                + " select * from \"tq_taken\" where (select count(*) from \"tq_back\") >= 0");
        assertThat(both.params()).extracting(Param::kind).containsExactly(Kind.KEY, Kind.ID, Kind.GROUP, Kind.KEY);
    }

    @Test
    void a_lock_and_take_without_an_attempt_column_reads_its_row_with_a_row_lock() {
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).payload(t.PAYLOAD).advisory("jobs-{id}").build();
        assertThat(dialect.advisoryLockAndTake(b, ClaimShape.ROLES).orElseThrow().sql())
                .contains("\"tq_taken\" as (select \"id\", \"payload\" from \"email_jobs\", \"tq_lock\""
                        + " where (\"tq_lock\".\"tq_locked\" and \"id\" = ? and \"grp\" = ?)"
                        + " for update of \"email_jobs\")");
    }

    @Test
    void the_walk_tries_one_key_per_row_in_claim_order_and_takes_the_row_whose_key_it_locked() {
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).priority(t.PRIORITY).attempt(t.ATTEMPT)
                .payload(t.PAYLOAD).advisory("jobs-{id}").build();
        Statement walk = dialect.advisoryWalk(b, ClaimShape.ROLES).orElseThrow();
        assertThat(walk.sql()).isEqualTo("with recursive \"tq_walk\" as ((select \"priority\", \"id\", \"tq_key\","
                + " pg_try_advisory_lock(hashtextextended(\"tq_key\", 0)) as \"tq_locked\", 1 as \"tq_step\""
                + " from (select \"priority\", \"id\","
                + " (? || coalesce(cast(\"id\" as varchar), '')) as \"tq_key\" from \"email_jobs\" where \"grp\" = ?"
                + " order by \"priority\" asc, \"id\" asc fetch next 1 rows only) as \"tq_first\")"
                + " union all (select \"tq_next\".\"priority\", \"tq_next\".\"id\", \"tq_next\".\"tq_key\","
                + " pg_try_advisory_lock(hashtextextended(\"tq_next\".\"tq_key\", 0)), \"tq_walk\".\"tq_step\" + 1"
                + " from \"tq_walk\" cross join lateral"
                + " (select \"priority\", \"id\", (? || coalesce(cast(\"id\" as varchar), '')) as \"tq_key\" from \"email_jobs\""
                + " where (\"grp\" = ? and (\"priority\", \"id\") > (\"tq_walk\".\"priority\", \"tq_walk\".\"id\"))"
                + " order by \"priority\" asc, \"id\" asc fetch next 1 rows only) as \"tq_next\""
                + " where not \"tq_walk\".\"tq_locked\" and \"tq_walk\".\"tq_step\" < 64)),"
                + " \"tq_held\" as (select \"id\" as \"tq_id\", \"tq_key\" from \"tq_walk\" where \"tq_locked\" limit 1),"
                + " \"tq_taken\" as (update \"email_jobs\" set \"attempt\" = (\"attempt\" + 1) from \"tq_held\""
                + " where (\"email_jobs\".\"id\" = \"tq_held\".\"tq_id\" and \"grp\" = ?)"
                + " returning \"id\", (\"attempt\" - 1) as \"attempt\", \"payload\", \"tq_held\".\"tq_key\"),"
                + " \"tq_back\" as (select pg_advisory_unlock(hashtextextended(\"tq_key\", 0)) from \"tq_held\""
                + " where not exists (select 1 from \"tq_taken\")),"
                + " \"tq_state\" as (select exists (select 1 from \"tq_held\") as \"tq_locked\","
                + " exists (select 1 from \"tq_walk\" where \"tq_walk\".\"tq_step\" >= 64 and not \"tq_walk\".\"tq_locked\")"
                + " as \"tq_cut\", (select count(*) from \"tq_back\") as \"tq_released\")"
                + " select \"tq_taken\".*, \"tq_state\".\"tq_locked\", \"tq_state\".\"tq_cut\" from \"tq_state\""
                + " left join \"tq_taken\" on true where \"tq_state\".\"tq_released\" >= 0");
        assertThat(walk.params()).extracting(Param::kind).containsExactly(Kind.CONSTANT, Kind.GROUP, Kind.CONSTANT,
                Kind.GROUP, Kind.GROUP);
    }

    @Test
    void a_walk_without_an_attempt_column_reads_its_row_with_a_row_lock_and_a_nullable_priority_gets_none() {
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).group(t.GRP).payload(t.PAYLOAD).advisory("jobs-{id}").build();
        assertThat(dialect.advisoryWalk(b, ClaimShape.ROLES).orElseThrow().sql())
                .contains(" join \"tq_held\" on \"email_jobs\".\"id\" = \"tq_held\".\"tq_id\"")
                .endsWith(" for update of \"email_jobs\"), \"tq_back\" as (select pg_advisory_unlock(hashtextextended("
                        + "\"tq_key\", 0)) from \"tq_held\" where not exists (select 1 from \"tq_taken\")),"
                        + " \"tq_state\" as (select exists (select 1 from \"tq_held\") as \"tq_locked\","
                        + " exists (select 1 from \"tq_walk\" where \"tq_walk\".\"tq_step\" >= 64 and not \"tq_walk\".\"tq_locked\")"
                        + " as \"tq_cut\", (select count(*) from \"tq_back\") as \"tq_released\")"
                        + " select \"tq_taken\".*, \"tq_state\".\"tq_locked\", \"tq_state\".\"tq_cut\" from \"tq_state\""
                        + " left join \"tq_taken\" on true where \"tq_state\".\"tq_released\" >= 0");
        // a NULL priority would end the walk's row comparison: such a binding reads candidates first
        RoleBinding<Record> loose = RoleBinding.of(t, t.ID).group(t.GRP)
                .priority(DSL.field(DSL.name("email_jobs", "priority"), org.jooq.impl.SQLDataType.INTEGER.nullable(true)))
                .attempt(t.ATTEMPT).payload(t.PAYLOAD).advisory("jobs-{id}").build();
        assertThat(dialect.advisoryWalk(loose, ClaimShape.ROLES)).isEmpty();
    }

    @Test
    void an_outcome_that_walks_on_writes_its_row_hands_its_key_over_and_walks_past_the_settled_row() {
        RoleBinding<Record> b = roles().advisory("jobs-{id}").build();
        Statement ack = dialect.ack(b);
        Statement walk = dialect.advisoryWalk(b, ClaimShape.ROLES).orElseThrow();
        Statement on = dialect.advisorySettleAndWalk(b, ack, ClaimShape.ROLES).orElseThrow();
        assertThat(on.purpose()).isEqualTo("ack, unlock and walk");
        assertThat(on.sql()).startsWith("with recursive \"tq_settled\" as (" + ack.sql() + " returning 1),"
                + " \"tq_release\" as (select pg_advisory_unlock(\"tq_kept\".\"tq_k\") as \"tq_u\" from (select"
                + " \"tq_k\", pg_try_advisory_xact_lock(\"tq_k\") as \"tq_x\" from (select hashtextextended(?, 0) as"
                + " \"tq_k\" from (select count(*) from \"tq_settled\") as \"tq_written\") as \"tq_key\") as"
                + " \"tq_kept\"), \"tq_walk\" as (");
        // the walk's own steps, each read passing over the settled row by its id and over the rows of the keys
        // the subscription's other deliveries hold
        String steps = walk.sql().substring("with recursive ".length(), walk.sql().indexOf(", \"tq_state\" as ("));
        String passing = " and not (\"id\" = ?) and ((? || coalesce(cast(\"id\" as varchar), '')) <> all(cast(? as"
                + " text[])))";
        assertThat(on.sql().split(java.util.regex.Pattern.quote(passing), -1)).hasSize(3);
        assertThat(on.sql().replace(passing, "")).contains(steps);
        assertThat(on.sql()).endsWith("(select bool_and(\"tq_u\") from \"tq_release\") as \"tq_unlocked\")"
                + " select \"tq_taken\".*, \"tq_state\".\"tq_locked\", \"tq_state\".\"tq_cut\","
                + " \"tq_state\".\"tq_unlocked\" from \"tq_state\" left join \"tq_taken\" on true where"
                + " \"tq_state\".\"tq_released\" >= 0");
        List<Kind> kinds = on.params().stream().map(Param::kind).toList();
        // the outcome's, the key, then the walk's: each of its two reads passes over the settled row's id and
        // the held keys
        assertThat(kinds.subList(0, 3)).containsExactly(Kind.NOW, Kind.ID, Kind.KEY);
        assertThat(kinds.subList(3, kinds.size())).containsExactly(Kind.CONSTANT, Kind.GROUP, Kind.NOW, Kind.ID,
                Kind.CONSTANT, Kind.HELD_KEYS, Kind.CONSTANT, Kind.GROUP, Kind.NOW, Kind.ID, Kind.CONSTANT,
                Kind.HELD_KEYS, Kind.GROUP, Kind.NOW);
        // a NULL priority would end the walk's row comparison: no walk, and no settlement that walks on
        RoleBinding<Record> loose = RoleBinding.of(t, t.ID).group(t.GRP)
                .priority(DSL.field(DSL.name("email_jobs", "priority"), org.jooq.impl.SQLDataType.INTEGER.nullable(true)))
                .attempt(t.ATTEMPT).payload(t.PAYLOAD).advisory("jobs-{id}").build();
        assertThat(dialect.advisorySettleAndWalk(loose, dialect.ack(loose), ClaimShape.ROLES)).isEmpty();
    }

    @Test
    void an_outcome_and_unlock_hands_the_key_to_the_outcomes_transaction_after_writing_its_row() {
        RoleBinding<Record> b = roles().advisory("jobs-{id}").build();
        Statement ack = dialect.ack(b);
        Statement both = dialect.advisorySettleAndUnlock(b, ack).orElseThrow();
        assertThat(both.sql()).isEqualTo("with \"tq_settled\" as (" + ack.sql() + " returning 1)"
                + " select pg_advisory_unlock(\"tq_kept\".\"tq_k\") from (select \"tq_k\","
                + " pg_try_advisory_xact_lock(\"tq_k\") as \"tq_x\" from (select hashtextextended(?, 0) as \"tq_k\""
                + " from (select count(*) from \"tq_settled\") as \"tq_written\") as \"tq_key\") as \"tq_kept\"");
        assertThat(both.params()).extracting(Param::kind).containsExactly(Kind.NOW, Kind.ID, Kind.KEY);
        assertThat(both.purpose()).isEqualTo("ack and unlock");
    }

    @Test
    void lease_settlements_name_the_token() {
        RoleBinding<Record> b = roles().lease(t.LOCKED_UNTIL).build();
        assertThat(dialect.ack(b).sql()).isEqualTo("update \"email_jobs\" set \"processed_at\" = " + TS
                + " where (\"id\" = ? and \"locked_until\" = " + TS + ")");
        assertThat(dialect.retry(b).orElseThrow().sql()).isEqualTo("update \"email_jobs\""
                + " set \"locked_until\" = null where (\"id\" = ? and \"locked_until\" = " + TS + ")");
        assertThat(dialect.leaseExtend(b).params()).extracting(Param::kind)
                .containsExactly(Kind.LEASE_UNTIL, Kind.ID, Kind.LEASE_HELD);
    }

    @Test
    void the_database_clock_reads_statement_timestamp() {
        RoleBinding<Record> b = RoleBinding.of(t, t.ID).retryAfter(t.RETRY_AFTER).processedAt(t.PROCESSED_AT)
                .payload(t.PAYLOAD).databaseClock().build();
        assertThat(dialect.claimRowLock(b, ClaimShape.IDS).sql())
                .contains("\"retry_after\" <= statement_timestamp()");
        assertThat(dialect.retryAfter(b).sql()).isEqualTo("update \"email_jobs\" set \"retry_after\""
                + " = (statement_timestamp() + make_interval(secs => cast(? as double precision))) where \"id\" = ?");
        assertThat(dialect.ack(b).sql()).isEqualTo("update \"email_jobs\" set \"processed_at\" = statement_timestamp()"
                + " where \"id\" = ?");
    }

    @Test
    void the_insert_names_the_columns_the_database_does_not_fill() {
        assertThat(dialect.insert(roles().build()).sql())
                .isEqualTo("insert into \"email_jobs\" (\"grp\", \"payload\") values (?, ?)");
        assertThat(dialect.deadLetterToTable(roles().build(), DSL.table(DSL.name("email_jobs_dead"))))
                .extracting(Statement::purpose).containsExactly("dead letter copy", "dead letter delete");
    }

    @Test
    void an_insert_with_a_leading_row_writes_both_rows_in_one_statement_and_returns_both_ids() {
        QueueTable<OffsetDateTime> records = new QueueTable<>("outbox_records", QueueTable.pgTime());
        LeadingInsert leading = new LeadingInsert(records, List.of(records.GRP, records.PAYLOAD), records.ID,
                "record-id");
        Statement insert = dialect.inserts(roles().headers(t.HEADERS).build()).leading(leading).orElseThrow().statement();
        assertThat(insert.sql()).isEqualTo("with \"tq_leading\"(\"tq_id\") as (insert into \"outbox_records\""
                + " (\"grp\", \"payload\") values (?, ?) returning \"id\"), \"tq_message\"(\"tq_id\") as"
                + " (insert into \"email_jobs\" (\"grp\", \"headers\", \"payload\") select ?, cast((coalesce(cast(?"
                + " as jsonb), jsonb_build_object()) || jsonb_build_object('record-id', cast(\"tq_leading\".\"tq_id\""
                + " as text))) as text), ? from \"tq_leading\" returning \"id\") select \"tq_leading\".\"tq_id\","
                + " (select \"tq_message\".\"tq_id\" from \"tq_message\") from \"tq_leading\"");
        // the message's values, then the leading row's
        assertThat(insert.params()).extracting(Param::index).containsExactly(3, 4, 0, 1, 2);
        assertThat(insert.params()).extracting(Param::kind).containsOnly(Kind.VALUE);
        // a table that keeps no header has no place for the id: the caller writes the leading row itself
        assertThat(dialect.inserts(roles().build()).leading(leading)).isEmpty();
        // nor does a table with a unique key: the leading row would be written for a message whose key is taken
        assertThat(dialect.inserts(roles().headers(t.HEADERS).uniqueKey(t.NOTE).build()).leading(leading)).isEmpty();
    }

    @Test
    void a_row_lock_claim_bounds_a_lock_wait_in_milliseconds_and_a_lease_claim_has_no_lock_to_wait_for() {
        LockWait wait = dialect.claims(roles().build(), ClaimShape.ROLES, false).lockWait(Duration.ofMillis(1500));
        assertThat(wait.bound()).isEqualTo("SET lock_timeout = 1500");
        assertThat(wait.restore()).isEqualTo("RESET lock_timeout");
        assertThat(wait.timedOut()).accepts(new SQLException("canceling statement due to lock timeout", "55P03"))
                .rejects(new SQLException("deadlock detected", "40P01"));
        QueueClaims leased = dialect.claims(roles().lease(t.LOCKED_UNTIL).build(), ClaimShape.ROLES, false);
        assertThatThrownBy(() -> leased.lockWait(Duration.ofSeconds(1))).isInstanceOf(DialectException.class)
                .hasMessageContaining("email_jobs").hasMessageContaining("ROW_LOCK");
    }

    @Test
    void openings_set_the_level_and_refuse_read_uncommitted_and_sqlite_modes() {
        assertThat(dialect.transactionOpening(roles().build())).isEqualTo(TransactionOpening.DEFAULT);
        assertThat(dialect.transactionOpening(roles().isolation(Isolation.SERIALIZABLE).build()).sql())
                .contains("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE");
        assertThatThrownBy(() -> dialect.validate(roles().isolation(Isolation.READ_UNCOMMITTED).build()))
                .isInstanceOf(DialectException.class)
                .hasMessageContaining("email_jobs")
                .hasMessageContaining("READ UNCOMMITTED");
        assertThatThrownBy(() -> dialect.validate(roles().sqliteMode(SqliteMode.IMMEDIATE).build()))
                .isInstanceOf(DialectException.class)
                .hasMessageContaining("IMMEDIATE");
    }

    @Test
    void a_name_over_63_bytes_is_refused() {
        String name = "q".repeat(64);
        QueueTable<OffsetDateTime> longName = new QueueTable<>(name, QueueTable.pgTime());
        RoleBinding<Record> b = RoleBinding.of(longName, longName.ID).payload(longName.PAYLOAD).build();
        assertThatThrownBy(() -> dialect.validate(b))
                .isInstanceOf(DialectException.class)
                .hasMessageContaining("64 bytes")
                .hasMessageContaining("63");
        assertThat(List.of(dialect.name(), dialect.sqlDialect().getName())).containsExactly("postgres", "Postgres");
    }

    @Test
    void a_notification_is_one_statement_per_channel_built_once_and_a_channel_over_63_bytes_is_refused() {
        QueueNotifications notifications = dialect.notifications();
        assertThat(notifications.refuseListener()).isEmpty();
        List<Statement> emails = notifications.statements("email_jobs");
        assertThat(emails).singleElement().satisfies(s -> {
            assertThat(s.purpose()).isEqualTo("notify");
            assertThat(s.sql()).isEqualTo("select pg_notify(?, ?)");
        });
        assertThat(notifications.statements("email_jobs").get(0)).isSameAs(emails.get(0));
        assertThat(dialect.rendering(new org.jooq.conf.Settings()).notifications()).isSameAs(notifications);
        assertThat(notifications.refuse("q".repeat(63))).isEmpty();
        assertThat(notifications.refuse("q".repeat(62) + "é")).hasValueSatisfying(reason -> assertThat(reason)
                .contains("is 64 bytes").contains("up to 63"));
    }

    @Test
    void the_unique_insert_names_its_conflict_target_and_the_pending_predicate_and_returns_the_id() {
        QueueInserts always = dialect.inserts(roles().uniqueKey(t.NOTE).build());
        QueueInserts pending = dialect.inserts(roles().uniqueKeyWhilePending(t.NOTE).build());

        // the plain insert (a row without a key), the unique insert, the read of the key's holder
        assertThat(always.statements()).extracting(Statement::sql).containsExactly(
                "insert into \"email_jobs\" (\"grp\", \"payload\", \"note\") values (?, ?, ?)",
                "insert into \"email_jobs\" (\"grp\", \"payload\", \"note\") values (?, ?, ?)"
                        + " on conflict (\"note\") do nothing returning \"id\"",
                "select \"id\" from \"email_jobs\" where \"note\" = ?");
        assertThat(pending.statements()).extracting(Statement::sql).containsExactly(
                "insert into \"email_jobs\" (\"grp\", \"payload\", \"note\") values (?, ?, ?)",
                "insert into \"email_jobs\" (\"grp\", \"payload\", \"note\") values (?, ?, ?)"
                        + " on conflict (\"note\") where \"processed_at\" is null do nothing returning \"id\"",
                "select \"id\" from \"email_jobs\" where (\"note\" = ? and \"processed_at\" is null)");
        // the holder read binds the key as the insert's value of the key column, so one row's binds serve both
        assertThat(pending.statements().get(2).params()).singleElement()
                .satisfies(p -> assertThat(p.kind()).isEqualTo(Kind.VALUE))
                .satisfies(p -> assertThat(p.index()).isEqualTo(2));
    }

}
