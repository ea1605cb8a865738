package dev.tablequeue.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tablequeue.AlreadySubscribedException;
import dev.tablequeue.SchemaException;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.test.contract.Jobs;
import java.time.Duration;
import java.util.List;
import org.jooq.Record;
import org.junit.jupiter.api.Test;

/**
 * What {@code start()} refuses, naming what is wrong: a form the database does not take, declarations the
 * table cannot carry, a missing table or column, and a second subscription to one queue.
 *
 * <p>A test of a form runs for each form the database takes; a test that needs a form the database lacks is
 * skipped (an assumption), never passed unrun. Each database runs this suite through a small subclass that
 * names its {@link TestDatabase}; the tests are final.
 */
public abstract class StartContract extends BrokerFixture {

    @Test
    public final void a_form_the_database_does_not_take_stops_the_start_naming_the_form() {
        List<Form> refused = java.util.Arrays.stream(Form.values()).filter(f -> !forms().contains(f)).toList();
        assumeTrue(!refused.isEmpty(), database() + " takes every form");
        for (Form form : refused) {
            Jobs t = newTable();
            QueueBroker broker = broker();
            broker.subscribe(InboxQueue.of(binding(t, form), "emails")).payload(Job.class)
                    .handle((job, d) -> Outcome.ack());
            assertThat(startsOrIsRefused(broker, form)).isFalse();
        }
    }

    @Test
    public final void declarations_a_table_cannot_carry_stop_the_start_naming_what_is_missing() {
        Jobs t = newTable();
        Form form = preferredForm();
        RoleBinding<Record> b = binding(t, form);
        assertRefused(b, m -> m.payload(Job.class).maxAttempts(3), "maxAttempts(3) needs a destination");
        assertRefused(b, m -> m.payload(Job.class).deadLetter("dead"), "without maxAttempts");
        assertRefused(bindingWithout(t, form, "attempt"), m -> m.payload(Job.class).maxAttempts(2).deadLetter("x"),
                "attempt column");
        assertRefused(b, m -> m.rows(), "payload mode");
        assertRefused(bindingWithout(t, form, "grp"), m -> m.payload(Job.class).maxAttempts(2).deadLetter("x"),
                "no group column");
        if (form != Form.LEASE) {
            assertRefused(b, m -> m.payload(Job.class).lease(Duration.ofSeconds(5)), "holds no lease");
        }
    }

    @Test
    public final void a_missing_table_or_column_stops_the_start_naming_the_table_and_the_statement() {
        Jobs missing = new Jobs("never_created_" + TABLES.incrementAndGet(), timeType());
        QueueBroker broker = broker();
        broker.subscribe(InboxQueue.of(binding(missing, preferredForm()), "emails")).payload(Job.class)
                .handle((job, d) -> Outcome.ack());
        assertThatThrownBy(broker::start)
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining(missing.getName())
                .hasMessageContaining("statement");

        Jobs t = newTable();
        db.execute("ALTER TABLE " + t.getName() + " DROP COLUMN note");
        RoleBinding<Record> rows = RoleBinding.of(t, t.ID).group(t.GRP).attempt(t.ATTEMPT)
                .processedAt(t.PROCESSED_AT).lease(t.LOCKED_UNTIL).build();
        QueueBroker other = broker();
        other.subscribe(InboxQueue.of(rows, "emails")).rows().handle((row, d) -> Outcome.ack());
        assertThatThrownBy(other::start)
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining(t.getName())
                .hasMessageContaining("note");
    }

    /**
     * On MySQL and MariaDB the settlements of many rows read the queue table through its primary key (a scan would
     * lock rows other claims hold): a table whose id is a unique key but no primary key is refused, saying so.
     */
    @Test
    public final void a_mysql_or_mariadb_table_without_a_primary_key_is_refused_naming_it() {
        assumeTrue(database() == TestDatabase.MARIADB || database() == TestDatabase.MYSQL,
                database() + " reads many rows without naming an index");
        Jobs t = new Jobs("keyless_" + TABLES.incrementAndGet(), timeType());
        String ddl = createTable(t.getName());
        String unique = ddl.replace("id BIGINT AUTO_INCREMENT PRIMARY KEY", "id BIGINT AUTO_INCREMENT UNIQUE");
        assertThat(unique).isNotEqualTo(ddl);
        db.execute(unique);
        QueueBroker broker = broker();
        broker.subscribe(InboxQueue.of(binding(t, preferredForm()), "emails")).payload(Job.class)
                .handle((job, d) -> Outcome.ack());
        assertThatThrownBy(broker::start)
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining(t.getName())
                .hasMessageContaining("has no primary key");
    }

    @Test
    public final void a_second_subscription_to_a_queue_is_refused() {
        Queue q = queue(preferredForm());
        q.emails().handle((job, d) -> Outcome.ack());
        assertThatThrownBy(() -> q.broker.subscribe(InboxQueue.of(q.b, "emails")))
                .isInstanceOf(AlreadySubscribedException.class)
                .hasMessageContaining(q.t.getName());
        // another group of the same table is another queue
        q.broker.subscribe(InboxQueue.of(q.b, "invoices")).payload(Job.class).handle((job, d) -> Outcome.ack());
    }
}
