package dev.tablequeue.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The figures of one case (a scenario on a database, in a form, at a number of workers): each contender's
 * measurement round by round, and what failed.
 */
final class CaseResult {
    /** The library under test. */
    static final String TABLEQUEUE = "tablequeue";
    /** A plain JDBC loop running the dialect's SQL. */
    static final String RAW = "raw JDBC";
    /** The raw loop on virtual threads: a diagnostic, with {@code --raw-virtual}. */
    static final String RAW_VIRTUAL = "raw JDBC, virtual threads";
    /** The batched baseline: up to the worker count of rows per claim, acknowledged in one statement. */
    static final String RAW_BATCHED = "raw JDBC, batched";
    /** tablequeue with the outbox tracking every message (its untracked figure is {@link #TABLEQUEUE}'s). */
    static final String TRACKED = "tablequeue, outbox tracked";
    /** tablequeue on a table that also holds many acknowledged rows ({@link Scenarios#CONSUME_GROWN}). */
    static final String GROWN = "tablequeue, beside acknowledged rows";
    /** tablequeue on such a table while its retention deletes them ({@link Scenarios#CONSUME_RETAINED}). */
    static final String RETAINED = "tablequeue, with retention";
    /** The peer a Java user would pick instead. */
    static final String DB_SCHEDULER = "db-scheduler";

    private final String database;
    private final String scenario;
    private final String form;
    private final int workers;
    private long messages;
    private final Map<String, List<Measurement>> rounds = new LinkedHashMap<>();
    private final List<String> failures = new ArrayList<>();

    CaseResult(String database, String scenario, String form, int workers) {
        this.database = database;
        this.scenario = scenario;
        this.form = form;
        this.workers = workers;
    }

    String database() {
        return database;
    }

    String scenario() {
        return scenario;
    }

    String form() {
        return form;
    }

    int workers() {
        return workers;
    }

    /** The messages of each timed run. */
    long messages() {
        return messages;
    }

    void messages(long n) {
        this.messages = n;
    }

    /** Declares a contender, so that it is listed even before (or without) a round. */
    void contender(String name) {
        rounds.computeIfAbsent(name, k -> new ArrayList<>());
    }

    void add(String contender, Measurement m) {
        rounds.computeIfAbsent(contender, k -> new ArrayList<>()).add(m);
    }

    void fail(String contender, String why) {
        failures.add(contender + ": " + why);
    }

    List<String> failures() {
        return Collections.unmodifiableList(failures);
    }

    List<String> contenders() {
        return List.copyOf(rounds.keySet());
    }

    List<Measurement> rounds(String contender) {
        return Collections.unmodifiableList(rounds.getOrDefault(contender, List.of()));
    }

    boolean has(String contender) {
        return !rounds(contender).isEmpty();
    }

    /** Best, median and worst messages per second of {@code contender}. */
    Stats.Spread spread(String contender) {
        return Stats.Spread.of(rounds(contender).stream().map(Measurement::perSecond).toList());
    }

    /** The median heap bytes per message of {@code contender}, NaN where not counted. */
    double bytesPerMessage(String contender) {
        List<Double> bytes = rounds(contender).stream().map(Measurement::bytesPerMessage)
                .filter(b -> !b.isNaN()).toList();
        return bytes.isEmpty() ? Double.NaN : Stats.median(bytes);
    }

    /** The shortest run of {@code contender}, in seconds. */
    double shortestSeconds(String contender) {
        return Stats.min(rounds(contender).stream().map(Measurement::seconds).toList());
    }

    /** {@code subject}'s median throughput over {@code baseline}'s, where both ran. */
    OptionalDouble ratio(String subject, String baseline) {
        if (!has(subject) || !has(baseline)) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(spread(subject).median() / spread(baseline).median());
    }

    @Override
    public String toString() {
        return database + " / " + scenario + " / " + form + " / " + workers + " worker(s)";
    }
}
