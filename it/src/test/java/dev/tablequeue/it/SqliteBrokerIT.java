package dev.tablequeue.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jooq.Record;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The broker suite on a SQLite file: the lease and advisory forms. */
class SqliteBrokerIT extends BrokerContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }

    @ParameterizedTest
    @EnumSource(value = Form.class, names = {"LEASE", "ADVISORY"})
    void outcomes_are_written_on_platform_threads_while_handlers_run_on_virtual_ones(Form form) {
        // the driver blocks its carrier in native code, so its statements stay off virtual threads
        Jobs t = newTable();
        RoleBinding<Record> b = binding(t, form);
        List<Boolean> settledOnVirtual = new CopyOnWriteArrayList<>();
        QueueBroker broker = broker(new BrokerListener() {
            @Override
            public void settled(Delivery delivery, Outcome outcome) {
                settledOnVirtual.add(Thread.currentThread().isVirtual());
            }
        });
        List<Boolean> handledOnVirtual = new CopyOnWriteArrayList<>();
        broker.subscribe(InboxQueue.of(b, "emails")).payload(Job.class).workers(4).handle((job, d) -> {
            handledOnVirtual.add(Thread.currentThread().isVirtual());
            return Outcome.ack();
        });
        broker.start();
        publish(broker, b, "emails", 20);
        await().atMost(PATIENCE).until(() -> settledOnVirtual.size() == 20);
        assertThat(count(t, "processed_at is not null")).isEqualTo(20);
        assertThat(settledOnVirtual).containsOnly(false);
        assertThat(handledOnVirtual).hasSize(20).containsOnly(true);
    }
}
