package dev.tablequeue.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How queued outcomes reach the batch writer: a batch handler's outcomes arrive as one. */
class SettlerTest {

    private static List<Settlement.Pending> pendings(int n) {
        List<Settlement.Pending> ps = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ps.add(new Settlement.Pending(null, Outcome.ack()));
        }
        return ps;
    }

    @Test
    void a_batch_handlers_outcomes_queued_together_are_written_in_one_batch_with_what_was_queued_beside_them()
            throws InterruptedException {
        Slots slots = new Slots(8);
        assertThat(slots.take(8, 0)).isEqualTo(8);
        List<List<Settlement.Pending>> written = new ArrayList<>();
        Settler settler = new Settler(outcomes -> written.add(List.copyOf(outcomes)), slots, "settler-test", 0);
        Settlement.Pending alone = pendings(1).get(0);
        List<Settlement.Pending> batch = pendings(5);
        settler.submit(alone);
        settler.submitAll(batch);
        settler.writeQueued();
        List<Settlement.Pending> expected = new ArrayList<>();
        expected.add(alone);
        expected.addAll(batch);
        assertThat(written).hasSize(1);
        assertThat(written.get(0)).containsExactlyElementsOf(expected);
    }

    @Test
    void outcomes_queued_together_after_the_settler_stopped_are_written_on_the_callers_thread_at_once()
            throws InterruptedException {
        Slots slots = new Slots(8);
        assertThat(slots.take(3, 0)).isEqualTo(3);
        List<List<Settlement.Pending>> written = new ArrayList<>();
        Settler settler = new Settler(outcomes -> written.add(List.copyOf(outcomes)), slots, "settler-test", 0);
        settler.stopAccepting();
        List<Settlement.Pending> batch = pendings(3);
        settler.submitAll(batch);
        assertThat(written).containsExactly(batch);
    }
}
