package dev.tablequeue.broker;

import java.util.List;
import java.util.Objects;

/** What a {@link BatchHandler} answers: one outcome for every row of the batch, or one per row. */
public sealed interface BatchOutcome {

    /** {@code outcome} for every row of the batch. */
    static BatchOutcome all(Outcome outcome) {
        return new All(Objects.requireNonNull(outcome, "outcome"));
    }

    /** One outcome per row, in the order of the batch's messages; as many as the batch has rows. */
    static BatchOutcome each(List<Outcome> outcomes) {
        return new Each(List.copyOf(outcomes));
    }

    /** The outcome of row {@code i} of a batch of {@code size} rows. */
    Outcome outcome(int i, int size);

    /** See {@link BatchOutcome#all(Outcome)}. */
    record All(Outcome outcome) implements BatchOutcome {
        @Override
        public Outcome outcome(int i, int size) {
            return outcome;
        }
    }

    /** See {@link BatchOutcome#each(List)}. */
    record Each(List<Outcome> outcomes) implements BatchOutcome {
        @Override
        public Outcome outcome(int i, int size) {
            if (outcomes.size() != size) {
                throw new IllegalStateException("a batch handler answered " + outcomes.size() + " outcomes for a"
                        + " batch of " + size + " rows: BatchOutcome.each takes one per row");
            }
            return Objects.requireNonNull(outcomes.get(i), "the outcome of row " + i + " of the batch");
        }
    }
}
