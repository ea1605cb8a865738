package dev.tablequeue.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs cases the way the figures need: each case is sized first (a warm-up run, then a run of about two
 * seconds whose rate sets the message count so that even the fastest contender's run lasts at least the
 * target time), then every case runs in interleaved rounds: round after round over all the cases, with the
 * contenders' order alternating, so that a burst of load from elsewhere on the machine spreads over
 * contenders instead of landing on one. On a shared machine a rate can rise after sizing (less load, a
 * warmer JIT): a case whose shortest run of a round fell under the target time gets more messages from the
 * next round on, and the report gives each case's shortest run.
 */
final class Rounds {
    /** One run of one contender over {@code messages} fresh messages. */
    interface Trial {
        Measurement run(long messages) throws Exception;
    }

    /** A case and its contenders' trials, in the order the first round runs them. */
    record Entry(CaseResult result, Map<String, Trial> trials) {
        Entry {
            trials = new LinkedHashMap<>(trials);
            trials.keySet().forEach(result::contender);
        }
    }

    private static final long WARM_UP_MESSAGES = 1000;
    private static final double MARGIN = 1.3;
    private static final double SIZING_SECONDS = 2.0;

    private final BenchOptions options;
    private final PrintStream log;

    Rounds(BenchOptions options, PrintStream log) {
        this.options = options;
        this.log = log;
    }

    void run(List<Entry> entries) {
        for (Entry entry : entries) {
            size(entry);
        }
        for (int round = 0; round < options.rounds(); round++) {
            for (int i = 0; i < entries.size(); i++) {
                Entry entry = entries.get(i);
                List<String> order = new ArrayList<>(entry.trials().keySet());
                if ((round + i) % 2 == 1) {
                    order = order.reversed();
                }
                double shortest = Double.MAX_VALUE;
                for (String contender : order) {
                    if (failed(entry, contender)) {
                        continue;
                    }
                    try {
                        Measurement m = entry.trials().get(contender).run(entry.result().messages());
                        entry.result().add(contender, m);
                        shortest = Math.min(shortest, m.seconds());
                        log.printf(Locale.ROOT, "round %d  %-60s %-13s %,10.0f msg/s  %6.2f s  %,8.0f B/msg%n",
                                round + 1, entry.result(), contender, m.perSecond(), m.seconds(),
                                m.bytesPerMessage());
                    } catch (Exception e) {
                        fail(entry, contender, e);
                    }
                }
                if (!options.quick() && shortest < options.seconds()) {
                    grow(entry, shortest);
                }
            }
        }
    }

    /** Gives a case whose shortest run lasted {@code shortest} seconds enough messages for the target time. */
    private void grow(Entry entry, double shortest) {
        long before = entry.result().messages();
        long n = Math.round(Math.ceil(before * options.seconds() / shortest * 1.1 / 100) * 100);
        entry.result().messages(Math.min(n, options.maxMessages()));
        log.printf(Locale.ROOT, "resized  %-60s %,d -> %,d messages per run (a run took %.2f s)%n", entry.result(),
                before, entry.result().messages(), shortest);
    }

    /** Sets the case's message count: fixed in quick mode, else sized from a warm-up of each contender. */
    private void size(Entry entry) {
        if (options.quick()) {
            entry.result().messages(BenchOptions.QUICK_MESSAGES);
            return;
        }
        double fastest = 0;
        for (Map.Entry<String, Trial> trial : entry.trials().entrySet()) {
            try {
                double warm = trial.getValue().run(WARM_UP_MESSAGES).perSecond();
                long sizing = Math.max(WARM_UP_MESSAGES, Math.round(warm * SIZING_SECONDS));
                double rate = trial.getValue().run(Math.min(sizing, options.maxMessages())).perSecond();
                fastest = Math.max(fastest, rate);
            } catch (Exception e) {
                fail(entry, trial.getKey(), e);
            }
        }
        long n = Math.round(Math.ceil(fastest * options.seconds() * MARGIN / 100) * 100);
        entry.result().messages(Math.clamp(n, WARM_UP_MESSAGES, options.maxMessages()));
        log.printf(Locale.ROOT, "sized    %-60s %,d messages per run%n", entry.result(),
                entry.result().messages());
    }

    private static boolean failed(Entry entry, String contender) {
        return entry.result().failures().stream().anyMatch(f -> f.startsWith(contender + ": "));
    }

    private void fail(Entry entry, String contender, Exception e) {
        entry.result().fail(contender, e.toString());
        log.printf("FAILED   %s %s: %s%n", entry.result(), contender, e);
        e.printStackTrace(log);
    }
}
