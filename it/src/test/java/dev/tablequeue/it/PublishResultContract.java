package dev.tablequeue.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.PublishResult;
import dev.tablequeue.broker.Publisher;
import dev.tablequeue.test.QueueWatch;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jooq.Record;
import org.jooq.TableField;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jooq.impl.TableImpl;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/**
 * What a publish returns: the id of the row it wrote (the database's, or the one the message gave), through
 * every entry point of the publisher (a connection of its own or the caller's transaction, by binding or by
 * route, one message or a batch), and the test kit's wait for that row. Each database runs it through a small
 * subclass; the tests are final.
 */
public abstract class PublishResultContract extends BrokerFixture {

    @Test
    public final void every_publish_returns_the_id_the_database_generated_for_its_row() {
        var t = newTable();
        RoleBinding<Record> b = binding(t, preferredForm());
        Publisher p = broker(new BrokerListener() {}, s -> s.route("emails", b)).publisher();
        List<PublishResult> results = new ArrayList<>();

        results.add(p.publish(b, Message.of("emails", new Job(0, "alone"))));
        results.add(p.publish("emails", new Job(1, "routed")));
        dsl().transaction(tx -> {
            results.add(p.publish(tx.dsl(), b, Message.of("emails", new Job(2, "in a transaction"))));
            results.add(p.publish(tx.dsl(), Message.of("emails", new Job(3, "routed in a transaction"))));
            results.addAll(p.publishAll(tx.dsl(), b, List.of(Message.of("emails", new Job(4, "batch")),
                    Message.of("emails", new Job(5, "batch")))));
        });
        results.addAll(p.publishAll(b, List.of(Message.of("emails", new Job(6, "batch")),
                Message.of("emails", new Job(7, "batch")), Message.of("emails", new Job(8, "batch")))));

        assertThat(results).hasSize(9).allSatisfy(r -> {
            assertThat(r.inserted()).isTrue();
            assertThat(r.deferred()).isFalse();
            assertThat(r.table()).isEqualTo(b.tableName());
            assertThat(r.id()).isInstanceOf(Long.class);
        });
        assertThat(results).extracting(PublishResult::id).doesNotHaveDuplicates();
        // each id is its own row's: the row of that id carries the job published
        for (int n = 0; n < results.size(); n++) {
            byte[] payload = dsl().select(t.PAYLOAD).from(t).where(t.ID.eq((Long) results.get(n).id()))
                    .fetchOne(t.PAYLOAD);
            assertThat(new String(payload, StandardCharsets.UTF_8)).contains("\"n\":" + n + ",");
        }
        assertThat(count(t, "1 = 1")).isEqualTo(9);
    }

    @Test
    public final void a_publish_returns_the_id_its_message_gives_its_row() {
        Given g = givenTable();
        // the advisory form: the one every database serves with no column of its own
        RoleBinding<Record> b = RoleBinding.of(g, g.ID).group(g.GRP).payload(g.PAYLOAD)
                .advisory(g.getName() + "-{id}").build();
        Publisher p = broker().publisher();

        PublishResult alone = p.publish(b, Message.of("emails", new Job(1, "given")).set(g.ID, 41L));
        PublishResult[] inTransaction = new PublishResult[1];
        dsl().transaction(tx -> inTransaction[0] = p.publish(tx.dsl(), b,
                Message.of("emails", new Job(2, "given")).set(g.ID, 42L)));
        List<PublishResult> batch = p.publishAll(b, List.of(
                Message.of("emails", new Job(3, "given")).set(g.ID, 43L),
                Message.of("emails", new Job(4, "given")).set(g.ID, 44L)));

        assertThat(Stream.concat(Stream.of(alone, inTransaction[0]), batch.stream()).map(PublishResult::id))
                .containsExactly(41L, 42L, 43L, 44L);
        assertThat(dsl().select(g.ID).from(g).orderBy(g.ID).fetch(g.ID)).containsExactly(41L, 42L, 43L, 44L);
    }

    @Test
    public final void the_test_kit_waits_for_the_row_a_publish_returned_in_its_own_table() {
        QueueWatch watch = new QueueWatch();
        Queue acked = queue(preferredForm(), watch);
        Queue retried = queue(preferredForm(), watch);
        acked.emails().handle((job, d) -> Outcome.ack());
        retried.emails().handle((job, d) -> Outcome.retryAfter(Duration.ofHours(1)));
        acked.start();
        retried.start();

        PublishResult first = acked.broker.publisher().publish(acked.b, Message.of("emails", new Job(1, "a")));
        PublishResult other = retried.broker.publisher().publish(retried.b, Message.of("emails", new Job(1, "b")));

        QueueWatch.Settled settled = watch.awaitAcknowledged(first, PATIENCE);
        assertThat(settled.isOf(first.id())).isTrue();
        assertThat(settled.table()).isEqualTo(acked.b.tableName());
        assertThat(watch.awaitSettled(other, PATIENCE).outcome()).isInstanceOf(Outcome.RetryAfter.class);
        // both tables' first rows have the same id: the wait by result tells them apart by table
        assertThat(other.id()).isEqualTo(first.id());
        assertThatThrownBy(() -> watch.awaitAcknowledged(other, Duration.ofMillis(300)))
                .isInstanceOf(AssertionFailedError.class).hasMessageContaining(retried.b.tableName());
    }

    /** A table whose id the database does not fill: each message gives its own. */
    protected static final class Given extends TableImpl<Record> {
        private static final long serialVersionUID = 1L;
        final TableField<Record, Long> ID = createField(DSL.name("id"), SQLDataType.BIGINT.nullable(false), this, "");
        final TableField<Record, String> GRP = createField(DSL.name("grp"), SQLDataType.VARCHAR(100), this, "");
        final TableField<Record, byte[]> PAYLOAD = createField(DSL.name("payload"), SQLDataType.BLOB, this, "");

        Given(String name) {
            super(DSL.name(name));
        }
    }

    private Given givenTable() {
        String name = "given" + TABLES.incrementAndGet();
        String blob = switch (engine()) {
            case POSTGRES -> "BYTEA";
            case MARIADB, MYSQL -> "LONGBLOB";
            case SQLITE -> "BLOB";
        };
        db.execute("CREATE TABLE " + name + " (id BIGINT PRIMARY KEY, grp VARCHAR(100), payload " + blob + ")");
        return new Given(name);
    }
}
