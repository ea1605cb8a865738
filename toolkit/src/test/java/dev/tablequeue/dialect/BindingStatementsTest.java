package dev.tablequeue.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tablequeue.DialectException;
import dev.tablequeue.binding.RoleBinding;
import java.time.OffsetDateTime;
import java.util.List;
import org.jooq.Record;
import org.junit.jupiter.api.Test;

/** What {@link BindingStatements#every} lists: the build-time check prepares exactly these. */
class BindingStatementsTest {
    private static final QueueTable<OffsetDateTime> T = new QueueTable<>("listed", SqliteQueues.TIME);
    private static final QueueTable<OffsetDateTime> DEAD = new QueueTable<>("listed_dead", SqliteQueues.TIME);

    private static List<String> purposes(List<Statement> statements) {
        return statements.stream().map(Statement::purpose).toList();
    }

    @Test
    void every_lists_a_subscriptions_statements_then_the_publishs_inserts() {
        RoleBinding<Record> lease = SqliteQueues.lease(T);
        SubscriptionStatements subscription = SubscriptionStatements.build(
                SqliteQueues.DIALECT, lease, ClaimShape.ROLES, true, DEAD);

        List<Statement> every = BindingStatements.every(SqliteQueues.DIALECT, lease, DEAD);

        int subscriptions = subscription.all().size();
        assertThat(every.subList(0, subscriptions)).isEqualTo(subscription.all());
        // then every statement of the publish's insert: SQLite's reads a generated id with RETURNING
        assertThat(purposes(every.subList(subscriptions, every.size()))).containsExactly("insert", "insert returning id");
        assertThat(every.get(subscriptions)).isEqualTo(SqliteQueues.DIALECT.insert(lease));
        assertThat(purposes(every)).contains("lease claim", "dead letter", "dead letter copy", "dead letter delete",
                "extend", "insert");
    }

    @Test
    void every_leaves_out_the_dead_letter_moves_a_binding_cannot_take() {
        RoleBinding<Record> noGroup = RoleBinding.of(T, T.ID).attempt(T.ATTEMPT).lease(T.LOCKED_UNTIL)
                .payload(T.PAYLOAD).build();

        assertThat(purposes(BindingStatements.every(SqliteQueues.DIALECT, noGroup, null)))
                .doesNotContain("dead letter", "dead letter copy", "dead letter delete");
    }

    @Test
    void every_on_postgres_ends_with_the_notification() {
        RoleBinding<Record> lease = SqliteQueues.lease(T);
        PostgresDialect postgres = new PostgresDialect();

        List<Statement> every = BindingStatements.every(postgres, lease, null);

        assertThat(every.get(every.size() - 1).purpose()).isEqualTo("notify");
        assertThat(every.get(every.size() - 1).sql()).contains("pg_notify");
    }

    @Test
    void an_advisory_subscription_on_postgres_takes_and_releases_its_keys_in_its_claims_and_outcomes() {
        PostgresDialect postgres = new PostgresDialect();
        RoleBinding<Record> advisory = RoleBinding.of(T, T.ID).group(T.GRP).retryAfter(T.RETRY_AFTER)
                .attempt(T.ATTEMPT).processedAt(T.PROCESSED_AT).payload(T.PAYLOAD).advisory("listed-{id}").build();

        SubscriptionStatements s = SubscriptionStatements.build(postgres, advisory, ClaimShape.ROLES, true, null);

        assertThat(s.keys().locksAndTakes()).isTrue();
        assertThat(s.keys().walks()).isTrue();
        // the advisory retry writes nothing (the release returns the row): it has no one-statement form
        assertThat(s.unlocking().keySet()).containsExactlyInAnyOrder(QueueSettlements.Kind.ACK,
                QueueSettlements.Kind.DROP, QueueSettlements.Kind.RETRY_AFTER,
                QueueSettlements.Kind.DEAD_LETTER_TO_GROUP);
        Statement ack = s.settlements().statements(QueueSettlements.Kind.ACK).get(0);
        assertThat(s.unlocking().get(QueueSettlements.Kind.ACK))
                .isEqualTo(postgres.advisorySettleAndUnlock(advisory, ack).get());
        assertThat(s.all()).containsAll(s.keys().statements()).containsAll(s.unlocking().values());
        assertThat(s.keys().statements()).extracting(Statement::purpose)
                .containsExactly("advisory candidates", "advisory take", "advisory lock and take", "advisory walk");
        // each of those outcomes also walks on to the next row, prepared with the rest
        assertThat(s.walking().keySet()).isEqualTo(s.unlocking().keySet());
        assertThat(s.walking().get(QueueSettlements.Kind.ACK))
                .isEqualTo(postgres.advisorySettleAndWalk(advisory, ack, ClaimShape.ROLES).get());
        assertThat(s.walking().get(QueueSettlements.Kind.ACK).sql())
                .startsWith("with recursive \"tq_settled\" as (" + ack.sql());
        assertThat(s.all()).containsAll(s.walking().values());
    }

    @Test
    void an_advisory_table_whose_priority_may_be_null_has_no_walk_and_no_settlement_that_walks_on() {
        RoleBinding<Record> nullable = RoleBinding.of(T, T.ID).group(T.GRP).priority(org.jooq.impl.DSL.field(
                        org.jooq.impl.DSL.name("listed", "priority"), org.jooq.impl.SQLDataType.INTEGER.nullable(true)))
                .attempt(T.ATTEMPT).processedAt(T.PROCESSED_AT).payload(T.PAYLOAD).advisory("listed-{id}").build();

        SubscriptionStatements s = SubscriptionStatements.build(new PostgresDialect(), nullable, ClaimShape.ROLES,
                false, null);

        assertThat(s.keys().walks()).isFalse();
        assertThat(s.unlocking()).isNotEmpty();
        assertThat(s.walking()).isEmpty();
    }

    @Test
    void keys_the_service_locks_itself_and_dialects_without_the_statements_keep_the_lock_and_unlock_apart() {
        RoleBinding<Record> ownLocks = RoleBinding.of(T, T.ID).group(T.GRP).attempt(T.ATTEMPT)
                .processedAt(T.PROCESSED_AT).payload(T.PAYLOAD).advisory("listed-{id}")
                .ownLock((ctx, key) -> true).ownUnlock((ctx, key) -> true).build();
        SubscriptionStatements own = SubscriptionStatements.build(new PostgresDialect(), ownLocks, ClaimShape.ROLES,
                false, null);
        assertThat(own.keys().locksAndTakes()).isFalse();
        assertThat(own.keys().walks()).isFalse();
        assertThat(own.unlocking()).isEmpty();
        assertThat(own.walking()).isEmpty();

        RoleBinding<Record> sqlite = RoleBinding.of(T, T.ID).group(T.GRP).attempt(T.ATTEMPT)
                .processedAt(T.PROCESSED_AT).payload(T.PAYLOAD).advisory("listed-{id}").build();
        SubscriptionStatements inProcess = SubscriptionStatements.build(SqliteQueues.DIALECT, sqlite,
                ClaimShape.ROLES, false, null);
        assertThat(inProcess.keys().locksAndTakes()).isFalse();
        assertThat(inProcess.keys().walks()).isFalse();
        assertThat(inProcess.unlocking()).isEmpty();
        assertThat(inProcess.walking()).isEmpty();
        assertThat(inProcess.keys().statements()).extracting(Statement::purpose)
                .startsWith("advisory candidates", "advisory take");
    }

    @Test
    void every_refuses_a_binding_the_database_cannot_serve() {
        RoleBinding<Record> rowLock = RoleBinding.of(T, T.ID).payload(T.PAYLOAD).build();

        assertThatThrownBy(() -> BindingStatements.every(SqliteQueues.DIALECT, rowLock, null))
                .isInstanceOf(DialectException.class)
                .hasMessageContaining("row lock");
    }

    @Test
    void shape_follows_the_tables_mode() {
        RoleBinding<Record> rows = RoleBinding.of(T, T.ID).attempt(T.ATTEMPT).lease(T.LOCKED_UNTIL).build();

        assertThat(BindingStatements.shape(rows)).isEqualTo(ClaimShape.ROWS);
        assertThat(BindingStatements.shape(SqliteQueues.lease(T))).isEqualTo(ClaimShape.ROLES);
    }
}
