package dev.tablequeue.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.jooq.impl.DefaultConfiguration;
import org.jooq.tools.jdbc.MockConnection;
import org.jooq.tools.jdbc.MockResult;
import org.junit.jupiter.api.Test;

class CommitWakeupsTest {
    private final DSLContext ctx = DSL.using(new DefaultConfiguration()
            .set(new MockConnection(execution -> new MockResult[0]))
            .set(SQLDialect.POSTGRES)
            .setAppending(new CommitWakeups()));
    private final List<String> woken = new CopyOnWriteArrayList<>();

    @Test
    void a_wake_up_deferred_in_a_transaction_runs_at_its_commit_and_not_before() {
        ctx.transaction(tx -> {
            assertThat(CommitWakeups.defer(() -> woken.add("emails"))).isTrue();
            assertThat(woken).isEmpty();
        });
        assertThat(woken).containsExactly("emails");
    }

    @Test
    void a_rollback_drops_the_wake_ups_of_its_transaction() {
        assertThatThrownBy(() -> ctx.transaction(tx -> {
            CommitWakeups.defer(() -> woken.add("emails"));
            throw new IllegalStateException("the order failed");
        })).isInstanceOf(IllegalStateException.class);
        assertThat(woken).isEmpty();
        // nothing stays open on the thread after the rollback
        assertThat(CommitWakeups.defer(() -> woken.add("late"))).isFalse();
    }

    @Test
    void a_nested_transactions_wake_ups_wait_for_the_outermost_commit() {
        ctx.transaction(outer -> {
            outer.dsl().transaction(inner -> CommitWakeups.defer(() -> woken.add("inner")));
            assertThat(woken).isEmpty();
            CommitWakeups.defer(() -> woken.add("outer"));
        });
        assertThat(woken).containsExactly("inner", "outer");
    }

    @Test
    void a_nested_transaction_that_rolls_back_drops_only_its_own_wake_ups() {
        ctx.transaction(outer -> {
            CommitWakeups.defer(() -> woken.add("outer"));
            try {
                outer.dsl().transaction(inner -> {
                    CommitWakeups.defer(() -> woken.add("inner"));
                    throw new IllegalStateException("the inner step failed");
                });
            } catch (IllegalStateException expected) {
                // the inner transaction rolled back to its savepoint
            }
        });
        assertThat(woken).containsExactly("outer");
    }

    @Test
    void outside_a_jooq_transaction_with_the_listener_nothing_is_deferred() {
        assertThat(CommitWakeups.defer(() -> woken.add("emails"))).isFalse();
        DSL.using(new MockConnection(execution -> new MockResult[0]), SQLDialect.POSTGRES)
                .transaction(tx -> assertThat(CommitWakeups.defer(() -> woken.add("emails"))).isFalse());
        assertThat(woken).isEmpty();
    }
}
