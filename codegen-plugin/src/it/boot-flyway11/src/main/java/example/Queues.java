package example;

import static example.Jobs.JOBS;

import dev.tablequeue.binding.RoleBinding;
import org.jooq.Record;

/** The service's queues, in the advisory form, which every database serves. */
public final class Queues {
    private Queues() {}

    /** Jobs by name, a lock per job; its subscriptions dead-letter into jobs_dead. */
    public static final RoleBinding<Record> JOBS_BY_NAME = RoleBinding.of(JOBS, JOBS.JOB_ID)
            .group(JOBS.NAME)
            .attempt(JOBS.ATTEMPT)
            .payload(JOBS.PAYLOAD)
            .advisory("jobs-{job_id}")
            .build();

    /** The same table, a lock per account: the jobs of one account never run side by side. */
    public static final RoleBinding<Record> BY_ACCOUNT = RoleBinding.of(JOBS, JOBS.JOB_ID)
            .group(JOBS.NAME)
            .attempt(JOBS.ATTEMPT)
            .payload(JOBS.PAYLOAD)
            .data(JOBS.ACCOUNT_ID)
            .advisory("accounts-{account_id}")
            .build();
}
