package dev.tablequeue.examples.demo;

import dev.tablequeue.examples.demo.DemoJob.Fate;

/**
 * What a demo run of {@code jobs} jobs should end with. Every 7th job fails its first attempt; one job in
 * every thousand (at least one), spread evenly over the run, fails every attempt and ends in the dead letter
 * after {@link #MAX_ATTEMPTS} deliveries. The rest succeed at once.
 *
 * @param jobs how many jobs the run enqueues
 */
record Plan(int jobs) {
    /** The deliveries a job gets; the failure of the last one moves it to the dead letter. */
    static final int MAX_ATTEMPTS = 3;
    /** Every how many jobs one fails its first attempt. */
    static final int FAILS_ONCE_EVERY = 7;
    /** Out of how many jobs one always fails. */
    static final int ALWAYS_FAILS_PER = 1000;

    Plan {
        if (jobs < 1) {
            throw new IllegalArgumentException("a demo needs at least one job, was " + jobs);
        }
    }

    /** The fate of job {@code n} (from 1). */
    Fate fate(int n) {
        int step = jobs / alwaysFailing();
        if (n % step == 0 && n / step <= alwaysFailing()) {
            return Fate.ALWAYS_FAILS;
        }
        return n % FAILS_ONCE_EVERY == 0 ? Fate.FAILS_ONCE : Fate.SUCCEEDS;
    }

    /** How many jobs should end acknowledged. */
    int processed() {
        return jobs - dead();
    }

    /** How many jobs should end in the dead letter. */
    int dead() {
        return alwaysFailing();
    }

    /**
     * How many retries should return a row to the queue: one per job that fails once, and every delivery but
     * the last of a job that always fails (the last one's retry moves it to the dead letter instead).
     */
    long retries() {
        return failsOnce() + (long) (MAX_ATTEMPTS - 1) * dead();
    }

    /** How many jobs should fail their first attempt and be acknowledged on their second. */
    long failsOnce() {
        long failsOnce = 0;
        for (int n = 1; n <= jobs; n++) {
            if (fate(n) == Fate.FAILS_ONCE) {
                failsOnce++;
            }
        }
        return failsOnce;
    }

    /** One per thousand jobs, rounded up, so even a small run dead-letters one. */
    private int alwaysFailing() {
        return (jobs + ALWAYS_FAILS_PER - 1) / ALWAYS_FAILS_PER;
    }
}
