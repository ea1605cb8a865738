package dev.tablequeue.examples.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The demo's command line.
 *
 * @param jobs how many jobs to enqueue and process
 * @param workers how many deliveries run at once
 * @param url the database, or empty for a fresh temporary SQLite file
 * @param transactional whether the subscription is mounted with {@code transactional()}, each handler writing
 *     its result into {@code demo_results} through the delivery's transaction
 * @param help whether to print the usage and stop
 */
record DemoOptions(int jobs, int workers, Optional<String> url, boolean transactional, boolean help) {
    static final int DEFAULT_JOBS = 10_000;
    static final int DEFAULT_WORKERS = 4;

    static final String USAGE = """
            usage: Demo [--jobs N] [--workers N] [--url JDBC-URL] [--transactional]
              --jobs N         jobs to enqueue and process (default 10000)
              --workers N      deliveries in work at once (default 4)
              --url URL        jdbc:postgresql://host:port/db?user=.. or jdbc:mariadb://host:port/db?user=.. :
                               a database of your own, into which Flyway migrates the example tables;
                               jdbc:sqlite:FILE for a file of your choice.
                               Default: a fresh SQLite file in a temporary folder, deleted at the end.
              --transactional  mount the subscription with transactional(): each handler writes a row into
                               demo_results through delivery.tx() on every attempt, which only an
                               acknowledgement commits, and the summary checks one row per acknowledged job;
                               the same jobs run first with plain handlers, and the two rates are printed
                               side by side.""";

    /**
     * Reads the options from {@code args}. Each argument is split at white space too, so that Maven's
     * {@code -Ddemo.args="--jobs 2000 --workers 8"}, which arrives as one argument, reads as four.
     *
     * @throws IllegalArgumentException naming the option that is wrong
     */
    static DemoOptions parse(String... args) {
        List<String> words = new ArrayList<>();
        for (String arg : args) {
            for (String word : arg.strip().split("\\s+")) {
                if (!word.isEmpty()) {
                    words.add(word);
                }
            }
        }
        int jobs = DEFAULT_JOBS;
        int workers = DEFAULT_WORKERS;
        String url = null;
        boolean transactional = false;
        boolean help = false;
        for (int i = 0; i < words.size(); i++) {
            String word = words.get(i);
            String name = word.contains("=") ? word.substring(0, word.indexOf('=')) : word;
            String inline = word.contains("=") ? word.substring(word.indexOf('=') + 1) : null;
            switch (name) {
                case "--help", "-h" -> help = true;
                case "--transactional" -> {
                    if (inline != null) {
                        throw new IllegalArgumentException("--transactional takes no value, was \"" + word + "\"");
                    }
                    transactional = true;
                }
                case "--jobs", "--workers", "--url" -> {
                    String value = inline;
                    if (value == null) {
                        if (i + 1 >= words.size()) {
                            throw new IllegalArgumentException(name + " needs a value");
                        }
                        value = words.get(++i);
                    }
                    switch (name) {
                        case "--jobs" -> jobs = number(name, value, 1, 10_000_000);
                        case "--workers" -> workers = number(name, value, 1, 256);
                        default -> url = value;
                    }
                }
                default -> throw new IllegalArgumentException("unknown option " + word);
            }
        }
        if (url != null) {
            DemoDatabase.check(url);
        }
        return new DemoOptions(jobs, workers, Optional.ofNullable(url), transactional, help);
    }

    private static int number(String option, String value, int min, int max) {
        int n;
        try {
            n = Integer.parseInt(value.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " takes a whole number, was \"" + value + "\"");
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException(option + " takes " + min + " to " + max + ", was " + n);
        }
        return n;
    }
}
