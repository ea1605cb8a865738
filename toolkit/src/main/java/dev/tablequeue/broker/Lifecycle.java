package dev.tablequeue.broker;

import dev.tablequeue.BrokerClosedException;

/**
 * Where a broker is in its life (configured, started, closed: each once) and the refusal of a call its state
 * does not take: {@link BrokerClosedException} once closed, {@link IllegalStateException} otherwise.
 */
final class Lifecycle {
    enum State {
        NEW,
        STARTED,
        CLOSED
    }

    private volatile State state = State.NEW;

    boolean is(State expected) {
        return state == expected;
    }

    void moveTo(State next) {
        state = next;
    }

    /** @throws BrokerClosedException once the broker is closed */
    void requireOpen(String action) {
        if (state == State.CLOSED) {
            throw new BrokerClosedException("the broker is closed: cannot " + action);
        }
    }

    /**
     * @throws BrokerClosedException once the broker is closed
     * @throws IllegalStateException where it is open but not in {@code expected}
     */
    void require(State expected, String action) {
        requireOpen(action);
        if (state != expected) {
            throw new IllegalStateException("the broker is " + state.name().toLowerCase() + ": cannot " + action);
        }
    }
}
