package dev.tablequeue.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.PublishResult;
import dev.tablequeue.broker.QueueAdmin;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.QueueWatch;
import dev.tablequeue.test.contract.Jobs;
import java.util.function.UnaryOperator;
import org.jooq.Record;
import org.jooq.conf.MappedSchema;
import org.jooq.conf.RenderMapping;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * One set of jOOQ classes for every database: a table generated on PostgreSQL names its schema
 * ({@code public.jobs}), and the broker renders it through the service's jOOQ settings. PostgreSQL has the
 * schema, SQLite is never given one, and MariaDB and MySQL, where {@code public} is no database, take the one
 * setting the adoption guide shows ({@code new Settings().withRenderSchema(false)}) or a render mapping to
 * their database. Each database runs it through a small subclass; the tests are final.
 */
public abstract class GeneratedSchemaContract extends BrokerFixture {

    @Test
    public final void a_table_generated_in_the_schema_public_is_served_with_the_settings_the_adoption_guide_gives() {
        boolean needsSetting = engine() == Engine.MARIADB || engine() == Engine.MYSQL;
        servesPublishesAndAcknowledges(needsSetting ? s -> s.settings(new Settings().withRenderSchema(false))
                : s -> s);
    }

    @Test
    public final void a_render_mapping_leads_the_schema_public_to_the_service_database() {
        assumeTrue(engine() == Engine.MARIADB || engine() == Engine.MYSQL,
                "PostgreSQL has the schema public, and SQLite renders no schema");
        servesPublishesAndAcknowledges(s -> s.settings(new Settings().withRenderMapping(new RenderMapping()
                .withSchemata(new MappedSchema().withInput("public").withOutput(db.name())))));
    }

    /**
     * Subscribes to a fresh table described as generated in the schema {@code public}, publishes into it and
     * waits for the acknowledgement, on a broker of {@code settings}; the admin counts the row processed.
     */
    private void servesPublishesAndAcknowledges(UnaryOperator<QueueBroker.Builder> settings) {
        String name = "jobs" + TABLES.incrementAndGet();
        db.execute(createTable(name));
        Jobs t = new Jobs(DSL.schema(DSL.name("public")), name, timeType());
        RoleBinding<Record> b = binding(t, preferredForm());
        QueueWatch watch = new QueueWatch();
        QueueBroker broker = broker(watch, settings);
        InboxQueue<Record> queue = InboxQueue.of(b, "emails");
        broker.subscribe(queue).payload(Job.class).handle((job, d) -> Outcome.ack());
        broker.start();

        PublishResult published = broker.publisher().publish(b, Message.of("emails", new Job(1, "generated")));

        watch.awaitAcknowledged(published, PATIENCE);
        assertThat(watch.problems()).isEmpty();
        assertThat(QueueAdmin.of(broker).stats(queue).processed()).isEqualTo(1);
        assertThat(dsl().fetchCount(DSL.table(DSL.name(name)), DSL.field(DSL.name("processed_at")).isNotNull()))
                .isEqualTo(1);
    }
}
