package dev.tablequeue.bench;

import dev.tablequeue.binding.Form;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What the harness runs, from its command line. Each argument may hold several options separated by
 * spaces (Maven passes {@code -Dbench.args=".."} as one argument).
 *
 * @param quick a smoke run: one round of small fixed counts, no warm-up, no time asserted
 * @param out where the reports go
 * @param databases the databases to measure, in order
 * @param workers the worker counts of the consumption cases (publishing uses the first and the last)
 * @param rounds timed rounds per case, interleaved across cases and contenders
 * @param seconds the least duration a timed run is sized for
 * @param maxMessages the most messages one run may be sized to
 * @param skip parts left out: consume, publish, latency, db-scheduler, durable, outbox, batched, batch, growth,
 *     steady, transactional, retention
 * @param rawVirtual adds a third contender to consumption cases: the raw loop on virtual threads
 * @param forms the claim forms of the consumption cases (each database runs those it takes)
 * @param steadySeconds the steady state's length, where given (else 5 minutes, 5 s in quick mode)
 * @param steadyShare the share of the consumption case's rate the steady state publishes at (0.8 unless given)
 * @param handlerMicros how long the consumption cases' tablequeue handler takes before it acknowledges (0: it
 *     returns at once), to measure the runtime with slow handlers; the raw loops do not wait
 */
record BenchOptions(
        boolean quick,
        Path out,
        List<Engine> databases,
        List<Integer> workers,
        int rounds,
        double seconds,
        long maxMessages,
        Set<String> skip,
        boolean rawVirtual,
        Set<Form> forms,
        double steadySeconds,
        double steadyShare,
        long handlerMicros) {

    /** Messages of each run in quick mode. */
    static final long QUICK_MESSAGES = 200;
    static final List<String> PARTS = List.of("consume", "publish", "latency", "db-scheduler", "durable", "outbox",
            "batched", "batch", "growth", "steady", "transactional", "retention");
    /** The acknowledged rows beside the pending ones in the {@code growth} case: full mode, then quick mode. */
    static final long GROWN_ROWS = 1_000_000;
    static final long GROWN_ROWS_QUICK = 10_000;
    /** The old acknowledged rows the retention case's table holds, for retention to delete: full, then quick mode. */
    static final long RETAINED_ROWS = 200_000;
    static final long RETAINED_ROWS_QUICK = 5_000;
    /** The batch sizes of the {@code batch} cases. */
    static final List<Integer> BATCHES = List.of(16, 64);

    static BenchOptions parse(String... args) {
        boolean quick = false;
        Path out = Path.of("target", "bench");
        List<Engine> databases = List.of(Engine.POSTGRES, Engine.MARIADB, Engine.SQLITE);
        List<Integer> workers = List.of(1, 4, 8);
        Integer rounds = null;
        double seconds = 3.0;
        long maxMessages = 400_000;
        double steadySeconds = 0;
        double steadyShare = 0.8;
        Set<String> skip = new LinkedHashSet<>();
        Set<String> only = null;
        boolean rawVirtual = false;
        long handlerMicros = 0;
        Set<Form> forms = Set.of(Form.values());
        List<String> words = new ArrayList<>();
        for (String arg : args) {
            if (arg != null && !arg.isBlank()) {
                words.addAll(Arrays.asList(arg.trim().split("\\s+")));
            }
        }
        for (String word : words) {
            String value = word.contains("=") ? word.substring(word.indexOf('=') + 1) : "";
            String name = word.contains("=") ? word.substring(0, word.indexOf('=')) : word;
            switch (name) {
                case "--quick" -> quick = true;
                case "--full" -> quick = false;
                case "--out" -> out = Path.of(value);
                case "--databases" -> databases = Arrays.stream(value.split(",")).map(Engine::of).toList();
                case "--workers" -> workers = Arrays.stream(value.split(",")).map(Integer::parseInt).sorted().toList();
                case "--rounds" -> rounds = Integer.parseInt(value);
                case "--seconds" -> seconds = Double.parseDouble(value);
                case "--max-messages" -> maxMessages = Long.parseLong(value);
                case "--steady-seconds" -> steadySeconds = Double.parseDouble(value);
                case "--steady-share" -> steadyShare = Double.parseDouble(value);
                case "--raw-virtual" -> rawVirtual = true;
                case "--handler-micros" -> handlerMicros = Long.parseLong(value);
                case "--forms" -> forms = Arrays.stream(value.split(","))
                        .map(f -> Form.valueOf(f.trim().toUpperCase(java.util.Locale.ROOT).replace('-', '_')))
                        .collect(java.util.stream.Collectors.toUnmodifiableSet());
                case "--skip" -> skip.addAll(parts(name, value));
                case "--only" -> only = parts(name, value);
                default -> throw new IllegalArgumentException("unknown option \"" + word + "\"; options: --quick,"
                        + " --out=DIR, --databases=postgres,mariadb,sqlite, --workers=1,4,8, --rounds=N,"
                        + " --seconds=S, --max-messages=N, --steady-seconds=S, --steady-share=F, --skip=" + String.join(",", PARTS) + ", --only=(as --skip),"
                        + " --raw-virtual, --handler-micros=N,"
                        + " --forms=row-lock,lease,advisory");
            }
        }
        if (only != null) {
            for (String part : PARTS) {
                if (!only.contains(part)) {
                    skip.add(part);
                }
            }
        }
        int r = rounds != null ? rounds : quick ? 1 : 3;
        if (r < 1 || workers.isEmpty() || workers.getFirst() < 1 || seconds <= 0 || steadySeconds < 0) {
            throw new IllegalArgumentException("rounds, workers and seconds must be positive");
        }
        if (handlerMicros < 0) {
            throw new IllegalArgumentException("--handler-micros must not be negative");
        }
        if (!(steadyShare > 0 && steadyShare <= 1)) {
            throw new IllegalArgumentException("--steady-share is a share of the consumption rate: above 0, at most 1");
        }
        return new BenchOptions(quick, out, databases, workers, r, seconds, maxMessages, Set.copyOf(skip),
                rawVirtual, forms, steadySeconds, steadyShare, handlerMicros);
    }

    /** The parts an option names, each checked against {@link #PARTS}. */
    private static Set<String> parts(String option, String value) {
        Set<String> parts = new LinkedHashSet<>();
        for (String part : value.split(",")) {
            if (!PARTS.contains(part)) {
                throw new IllegalArgumentException(option + " takes " + PARTS + ", not \"" + part + "\"");
            }
            parts.add(part);
        }
        return parts;
    }

    boolean runs(String part) {
        return !skip.contains(part);
    }

    /** The thread counts of the publishing cases: the least and the most workers. */
    List<Integer> publishThreads() {
        return workers.size() == 1 ? workers : List.of(workers.getFirst(), workers.getLast());
    }
}
