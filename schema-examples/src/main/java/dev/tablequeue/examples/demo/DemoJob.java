package dev.tablequeue.examples.demo;

/**
 * The payload of one demo job: its number, and what its handler will answer, fixed by the {@link Plan} when
 * the job is enqueued, so a row read in the table says what was meant to become of it.
 *
 * @param n the job's number, from 1
 * @param fate what the handler answers for it
 */
public record DemoJob(int n, Fate fate) {

    /** What the handler answers for a job. */
    public enum Fate {
        /** Acknowledged on its first delivery. */
        SUCCEEDS,
        /** Retried after a short delay on its first delivery, acknowledged on its second. */
        FAILS_ONCE,
        /** Retried on every delivery, so its last allowed attempt moves it to the dead letter. */
        ALWAYS_FAILS
    }
}
