package dev.tablequeue.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tablequeue.broker.QueueStats;
import dev.tablequeue.broker.ScheduleState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Collectors;

/** What the commands print: a table for a person, or JSON for a script. */
final class Output {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> HEADINGS = List.of("queue", "pending", "scheduled", "in work", "dead",
            "processed", "oldest pending", "attempts");

    private Output() {}

    /**
     * One line per queue under a heading, columns aligned, numbers to the right; "-" where a figure is not
     * known (rows in work in a form the table does not mark, a dead letter not named, no pending row).
     */
    static String statsTable(List<QueueStats> stats) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(HEADINGS);
        for (QueueStats s : stats) {
            rows.add(List.of(s.queue(), Long.toString(s.pending()), Long.toString(s.scheduled()), known(s.inWork()),
                    known(s.dead()), Long.toString(s.processed()),
                    s.oldestPendingAge().map(Ages::format).orElse("-"), attempts(s.attempts())));
        }
        int[] widths = new int[HEADINGS.size()];
        for (List<String> row : rows) {
            for (int i = 0; i < row.size(); i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (List<String> row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                String cell = row.get(i);
                boolean left = i == 0 || i == row.size() - 1;
                String pad = " ".repeat(widths[i] - cell.length());
                line.append(i == 0 ? "" : "  ").append(left ? cell + pad : pad + cell);
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        return out.toString();
    }

    private static String known(OptionalLong value) {
        return value.isPresent() ? Long.toString(value.getAsLong()) : "-";
    }

    private static String attempts(Map<Integer, Long> attempts) {
        return attempts.isEmpty() ? "-" : attempts.entrySet().stream()
                .map(e -> e.getKey() + ":" + e.getValue()).collect(Collectors.joining(" "));
    }

    /** {@code {"table": .., "queues": [{"queue": .., "pending": .., ..}]}}; null where a figure is not known. */
    static String statsJson(String table, List<QueueStats> stats) {
        ObjectNode root = JSON.createObjectNode().put("table", table);
        var queues = root.putArray("queues");
        for (QueueStats s : stats) {
            ObjectNode q = queues.addObject();
            q.put("queue", s.queue()).put("pending", s.pending()).put("scheduled", s.scheduled());
            put(q, "inWork", s.inWork());
            put(q, "dead", s.dead());
            q.put("processed", s.processed());
            if (s.oldestPendingAge().isPresent()) {
                Duration age = s.oldestPendingAge().get();
                q.put("oldestPendingAgeSeconds", age.toMillis() / 1000.0);
            } else {
                q.putNull("oldestPendingAgeSeconds");
            }
            ObjectNode attempts = q.putObject("attempts");
            s.attempts().forEach((attempt, n) -> attempts.put(Integer.toString(attempt), n));
        }
        return root.toPrettyString() + "\n";
    }

    private static void put(ObjectNode node, String name, OptionalLong value) {
        if (value.isPresent()) {
            node.put(name, value.getAsLong());
        } else {
            node.putNull(name);
        }
    }

    /** {@code {"table": .., "queue": .., "<what>": n}}. */
    static String countJson(String table, String queue, String what, long n) {
        return JSON.createObjectNode().put("table", table).put("queue", queue).put(what, n).toPrettyString() + "\n";
    }

    /** What one retention pass removed. */
    static String retentionJson(dev.tablequeue.broker.RetentionReport report) {
        var pass = report.last();
        return JSON.createObjectNode().put("table", report.table()).put("acknowledged", pass.acknowledged())
                .put("dead", pass.dead()).put("batches", pass.batches()).put("heldElsewhere", pass.heldElsewhere())
                .toPrettyString() + "\n";
    }

    /** One line per schedule: its name, timing, table and queue, newest instant in the table and next instant. */
    static String schedulesTable(List<ScheduleState> states) {
        String format = "%-20s %-36s %-24s %-21s %s%n";
        StringBuilder s = new StringBuilder(String.format(format, "schedule", "timing", "table / queue", "last",
                "next"));
        for (ScheduleState state : states) {
            s.append(String.format(format, state.name(), state.timing(), state.table() + " / " + state.queue(),
                    state.lastInstant().map(Instant::toString).orElse("-"),
                    state.nextInstant().map(Instant::toString).orElse("-")));
        }
        return s.toString();
    }

    /** {@code [{"name": .., "timing": .., "table": .., "queue": .., "last": .., "next": ..}]}; null where none. */
    static String schedulesJson(List<ScheduleState> states) {
        ArrayNode array = JSON.createArrayNode();
        for (ScheduleState state : states) {
            array.addObject().put("name", state.name()).put("timing", state.timing()).put("table", state.table())
                    .put("queue", state.queue())
                    .put("last", state.lastInstant().map(Instant::toString).orElse(null))
                    .put("next", state.nextInstant().map(Instant::toString).orElse(null));
        }
        return array.toPrettyString() + "\n";
    }
}
