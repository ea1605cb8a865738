package dev.tablequeue.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tablequeue.binding.Form;
import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.test.contract.OutcomesContract;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The outcomes suite on a SQLite file: the lease and advisory forms; and the threads
 * outcomes are written on.
 */
class SqliteOutcomesIT extends OutcomesContract {

    @Override
    protected TestDatabase database() {
        return TestDatabase.SQLITE;
    }

    @ParameterizedTest
    @EnumSource(value = Form.class, names = {"LEASE", "ADVISORY"})
    void outcomes_are_written_on_platform_threads_while_handlers_run_on_virtual_ones(Form form) {
        // the driver blocks its carrier in native code, so its statements stay off virtual threads
        List<Boolean> settledOnVirtual = new CopyOnWriteArrayList<>();
        Queue q = queue(form, new BrokerListener() {
            @Override
            public void settled(Delivery delivery, Outcome outcome) {
                settledOnVirtual.add(Thread.currentThread().isVirtual());
            }
        });
        List<Boolean> handledOnVirtual = new CopyOnWriteArrayList<>();
        q.emails().workers(4).handle((job, d) -> {
            handledOnVirtual.add(Thread.currentThread().isVirtual());
            return Outcome.ack();
        });
        q.start().publish(20);
        await().atMost(PATIENCE).until(() -> settledOnVirtual.size() == 20);
        assertThat(q.count("processed_at is not null")).isEqualTo(20);
        assertThat(settledOnVirtual).containsOnly(false);
        assertThat(handledOnVirtual).hasSize(20).containsOnly(true);
    }
}
