package dev.tablequeue.dashboard;

import com.samskivert.mustache.Mustache;
import com.samskivert.mustache.Template;
import dev.tablequeue.binding.Role;
import dev.tablequeue.broker.QueueAdmin;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.broker.QueueRow;
import dev.tablequeue.broker.QueueStats;
import dev.tablequeue.broker.Throughput;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The page's templates (Mustache, which escapes every value for HTML unless a template says otherwise, as only
 * the chart's SVG does) and what they show of each queue, read from the admin when the page is asked for.
 */
final class Views {
    /** How many failing rows and dead letters a queue shows. */
    static final int ROWS = 20;
    /** The chart's periods: a minute each, the last fifteen. */
    static final Duration PERIOD = Duration.ofMinutes(1);
    static final int PERIODS = 15;
    /** The longest last error a row shows in full; the rest is cut (the cell's title holds it all). */
    private static final int ERROR_CHARS = 300;

    private final Template page;
    private final Template confirm;
    private final Template message;

    Views() {
        Mustache.Compiler compiler = Mustache.compiler().emptyStringIsFalse(true).withLoader(Views::resource);
        this.page = compile(compiler, "page");
        this.confirm = compile(compiler, "confirm");
        this.message = compile(compiler, "message");
    }

    String page(Map<String, Object> model) {
        return page.execute(model);
    }

    String confirm(Map<String, Object> model) {
        return confirm.execute(model);
    }

    String message(String service, String title, String text, boolean refused) {
        return message.execute(Map.of("service", service, "title", title, "text", text, "refused", refused));
    }

    /** What the page shows of {@code q}: its figures, chart, failing rows and dead letters, or why it cannot. */
    static Map<String, Object> queue(QueueAdmin admin, QueueBroker broker, Dashboard.Entry q) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("index", q.index());
        m.put("name", q.queue().name());
        m.put("table", q.queue().binding().tableName());
        m.put("deadLetter", q.deadLetter() == null ? "" : q.deadLetter().toString());
        m.put("hasDeadLetter", q.deadLetter() != null);
        boolean served = broker != null && broker.queues().stream().anyMatch(s -> s.queue().equals(q.queue()));
        m.put("served", served);
        m.put("paused", served && broker.isPaused(q.queue()));
        try {
            QueueStats stats = admin.stats(q.queue(), q.deadLetter());
            m.put("pending", stats.pending());
            m.put("scheduled", stats.scheduled());
            m.put("inWork", stats.inWork().isPresent() ? String.valueOf(stats.inWork().getAsLong()) : "?");
            m.put("inWorkKnown", stats.inWork().isPresent());
            m.put("retried", stats.attempts().entrySet().stream().filter(e -> e.getKey() > 1)
                    .mapToLong(Map.Entry::getValue).sum());
            m.put("dead", stats.dead().isPresent() ? String.valueOf(stats.dead().getAsLong()) : "–");
            // a table without processed_at deletes what it acknowledges: it keeps none, rather than 0
            m.put("processed", q.queue().binding().has(Role.PROCESSED_AT) ? String.valueOf(stats.processed()) : "–");
            m.put("oldest", stats.oldestPendingAge().map(Views::age).orElse("–"));
            m.put("readError", "");
        } catch (RuntimeException e) {
            m.put("readError", "Its counts cannot be read: " + e.getMessage());
        }
        chart(admin, served, q, m);
        List<Map<String, Object>> failing = rows(() -> admin.failing(q.queue(), ROWS), m, "failingNote");
        m.put("failing", failing);
        m.put("hasFailing", !failing.isEmpty());
        List<Map<String, Object>> dead = q.deadLetter() == null ? List.of()
                : rows(() -> admin.deadLetters(q.queue(), q.deadLetter(), ROWS), m, "deadNote");
        m.put("deadRows", dead);
        m.put("hasDeadRows", !dead.isEmpty());
        return m;
    }

    /**
     * The throughput chart: from processed_at where the table keeps it; else, where the page runs with the
     * service's broker, from the acknowledgements that broker counted; else no chart, and a note that says why.
     */
    private static void chart(QueueAdmin admin, boolean served, Dashboard.Entry q, Map<String, Object> m) {
        m.put("chart", "");
        boolean kept = q.queue().binding().has(Role.PROCESSED_AT);
        m.put("chartSource", kept ? "processed_at" : served ? "broker" : "none");
        if (!kept && !served) {
            m.put("chartNote", "No throughput chart: the table deletes a row when it is acknowledged (no"
                    + " processed_at), and only the service's broker counts them; this page does not run with it.");
            return;
        }
        try {
            Throughput t = kept ? admin.throughput(q.queue(), PERIOD, PERIODS)
                    : admin.acknowledgedByBroker(q.queue(), PERIODS);
            m.put("chart", Chart.svg(t));
            m.put("chartNote", Chart.caption(t) + (kept ? "" : ", as this instance's broker counted them"
                    + " (the table deletes acknowledged rows)"));
        } catch (RuntimeException e) {
            m.put("chartNote", "The throughput cannot be read: " + e.getMessage());
        }
    }

    private interface Reading {
        List<QueueRow> read();
    }

    private static List<Map<String, Object>> rows(Reading reading, Map<String, Object> m, String note) {
        m.put(note, "");
        try {
            List<Map<String, Object>> rows = new ArrayList<>();
            for (QueueRow r : reading.read()) {
                String error = r.lastError().orElse("");
                rows.add(Map.of("id", String.valueOf(r.id()),
                        "attempt", r.attempt().isPresent() ? String.valueOf(r.attempt().getAsInt()) : "–",
                        "due", r.due().map(Views::time).orElse("–"),
                        "error", error.length() > ERROR_CHARS ? error.substring(0, ERROR_CHARS) + "…" : error,
                        "fullError", error));
            }
            if (rows.isEmpty()) {
                m.put(note, "None.");
            } else if (rows.size() == ROWS) {
                m.put(note, "The first " + ROWS + ", in due order.");
            }
            return rows;
        } catch (RuntimeException e) {
            m.put(note, "Cannot be read: " + e.getMessage());
            return List.of();
        }
    }

    /** {@code d} as an operator reads it: {@code 45s}, {@code 3m 20s}, {@code 2h 05m}, {@code 3d 4h}. */
    static String age(Duration d) {
        long s = d.toSeconds();
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return s / 60 + "m " + String.format("%02ds", s % 60);
        }
        if (s < 86_400) {
            return s / 3600 + "h " + String.format("%02dm", s % 3600 / 60);
        }
        return s / 86_400 + "d " + s % 86_400 / 3600 + "h";
    }

    static String time(Instant at) {
        return DateTimeFormatter.ISO_INSTANT.format(at.truncatedTo(ChronoUnit.SECONDS));
    }

    private static Template compile(Mustache.Compiler compiler, String name) {
        try (Reader r = resource(name)) {
            return compiler.compile(r);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the dashboard's template " + name, e);
        }
    }

    private static Reader resource(String name) {
        String path = name + ".mustache";
        InputStream in = Views.class.getResourceAsStream(path);
        if (in == null) {
            throw new IllegalStateException("the dashboard's template " + path + " is missing from its jar");
        }
        return new InputStreamReader(in, StandardCharsets.UTF_8);
    }
}
