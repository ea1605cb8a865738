package dev.tablequeue.broker;

import java.time.Duration;
import java.util.OptionalInt;
import java.util.concurrent.ThreadLocalRandom;

/**
 * An exponential backoff with jitter: step {@code n} of a row (its attempt) is {@code first * 2^(n-1)},
 * capped at {@code most}, and the delay is drawn uniformly from the upper half of the step. Half the step
 * keeps a floor under each delay, so a failing row never comes back at full speed; the other half spreads
 * rows that failed together (a database or a service down for all of them) over time.
 */
final class Backoff implements FailurePolicy {
    /** The longest a worker holds a failed row in process, where the table cannot hide it. */
    static final int MOST_HELD_SECONDS = 10;
    static final Backoff DEFAULT = new Backoff(Duration.ofSeconds(1), Duration.ofMinutes(15));

    private final long firstMillis;
    private final long mostMillis;

    Backoff(Duration first, Duration most) {
        this.firstMillis = first.toMillis();
        this.mostMillis = most.toMillis();
    }

    @Override
    public Outcome settle(Delivery delivery, Throwable failure) {
        return Outcome.retryAfter(delay(delivery.attempt()));
    }

    /** The delay after the failure of attempt {@code attempt} (the first step where it is unknown). */
    Duration delay(OptionalInt attempt) {
        long step = step(Math.max(1, attempt.orElse(1)));
        long half = step / 2;
        return Duration.ofMillis(half + ThreadLocalRandom.current().nextLong(step - half + 1));
    }

    /** The step of attempt {@code n}: first, doubled n - 1 times, at most {@code most}. */
    long step(int n) {
        long step = firstMillis;
        for (int i = 1; i < n && step < mostMillis; i++) {
            step *= 2;
        }
        return Math.min(step, mostMillis);
    }

    @Override
    public String toString() {
        return "backoff(" + Duration.ofMillis(firstMillis) + " .. " + Duration.ofMillis(mostMillis) + ")";
    }
}
