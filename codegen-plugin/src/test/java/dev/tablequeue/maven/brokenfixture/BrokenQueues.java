package dev.tablequeue.maven.brokenfixture;

import static dev.tablequeue.maven.fixture.FixtureJobs.FIXTURE_JOBS;

import dev.tablequeue.binding.RoleBinding;
import org.jooq.Record;

/** A binding that {@code build()} refuses: the advisory key names a column the table does not have. */
public final class BrokenQueues {
    private BrokenQueues() {}

    public static final RoleBinding<Record> BROKEN = RoleBinding.of(FIXTURE_JOBS, FIXTURE_JOBS.ID)
            .payload(FIXTURE_JOBS.PAYLOAD)
            .advisory("broken-{no_such_column}")
            .build();
}
