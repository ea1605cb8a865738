package dev.tablequeue.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Sets two builds' harness runs side by side ({@code it/bench-ab}): the {@code bench.json} of each run of the
 * baseline and of the build under test, taken in alternation on one machine, each run one round. For every case
 * and contender both measured, the median messages a second of each build's rounds and their ratio, new over
 * old. The raw JDBC loops run the same SQL in both builds: their ratio shows how far the machine drifted.
 *
 * <p>Arguments: the output file, then the baseline's run directories, {@code --}, and the new build's.
 */
public final class AbReport {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private AbReport() {}

    public static void main(String[] args) throws IOException {
        if (args.length < 4) {
            throw new IllegalArgumentException("usage: AbReport <out.md> <baseline run dir>... -- <new run dir>...");
        }
        Path out = Path.of(args[0]);
        List<Path> old = new ArrayList<>();
        List<Path> fresh = new ArrayList<>();
        List<Path> into = old;
        for (int i = 1; i < args.length; i++) {
            if (args[i].equals("--")) {
                into = fresh;
            } else {
                into.add(Path.of(args[i]));
            }
        }
        Map<String, List<Double>> before = rounds(old);
        Map<String, List<Double>> after = rounds(fresh);
        String report = render(before, after, old.size(), fresh.size());
        Files.writeString(out, report);
        System.out.print(report);
    }

    /** The messages a second of every round, per case and contender, over the runs in {@code dirs}. */
    static Map<String, List<Double>> rounds(List<Path> dirs) throws IOException {
        Map<String, List<Double>> rounds = new LinkedHashMap<>();
        for (Path dir : dirs) {
            JsonNode root = MAPPER.readTree(dir.resolve("bench.json").toFile());
            for (JsonNode c : root.path("cases")) {
                String name = c.path("database").asText() + " | " + c.path("scenario").asText() + " | "
                        + c.path("form").asText() + " | " + c.path("workers").asInt();
                c.path("contenders").fields().forEachRemaining(contender -> {
                    List<Double> values = rounds.computeIfAbsent(name + " | " + contender.getKey(),
                            k -> new ArrayList<>());
                    for (JsonNode r : contender.getValue().path("rounds")) {
                        values.add(r.path("perSecond").asDouble());
                    }
                });
            }
        }
        return rounds;
    }

    static String render(Map<String, List<Double>> before, Map<String, List<Double>> after, int oldRuns,
            int newRuns) {
        StringBuilder md = new StringBuilder();
        md.append("# A/B: baseline against the build under test\n\n");
        md.append(String.format(Locale.ROOT, "%d baseline run(s) and %d new run(s), taken in alternation;"
                + " medians of each build's rounds, messages a second.%n%n", oldRuns, newRuns));
        md.append("| database | case | form | workers | contender | baseline | new | new / baseline |\n");
        md.append("|---|---|---|---:|---|---:|---:|---:|\n");
        for (Map.Entry<String, List<Double>> e : before.entrySet()) {
            List<Double> now = after.get(e.getKey());
            if (now == null || now.isEmpty() || e.getValue().isEmpty()) {
                continue;
            }
            double was = Stats.median(e.getValue());
            double is = Stats.median(now);
            md.append("| ").append(e.getKey()).append(String.format(Locale.ROOT, " | %,.0f | %,.0f | %.2f |%n",
                    was, is, was == 0 ? Double.NaN : is / was));
        }
        return md.toString();
    }
}
