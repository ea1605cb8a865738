package dev.tablequeue.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;

/**
 * Renders a {@link BenchReport} as JSON: every round of every contender, and the summaries the Markdown
 * prints (best, median, worst, ratios, percentiles, targets). A figure that was not counted is null.
 */
final class JsonReport {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private JsonReport() {}

    static String render(BenchReport report) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("mode", report.mode());
        root.put("rounds", report.rounds());
        root.put("targetSeconds", report.targetSeconds());
        root.put("started", report.started().toString());
        root.put("tookSeconds", report.took().toSeconds());
        root.set("machine", strings(report.machine()));
        ObjectNode settings = root.putObject("settings");
        report.settings().forEach((db, values) -> settings.set(db, strings(values)));
        ArrayNode cases = root.putArray("cases");
        for (CaseResult c : report.cases()) {
            cases.add(caseNode(c));
        }
        ArrayNode latencies = root.putArray("latencies");
        for (LatencyResult l : report.latencies()) {
            ObjectNode n = latencies.addObject();
            n.put("database", l.database());
            n.put("wakeup", l.wakeup());
            n.put("samples", l.millis().size());
            n.put("p50Millis", l.p50());
            n.put("p99Millis", l.p99());
            n.put("maxMillis", l.max());
        }
        ArrayNode steady = root.putArray("steady");
        for (SteadyResult r : report.steady()) {
            ObjectNode n = steady.addObject();
            n.put("database", r.database());
            n.put("form", r.form());
            n.put("workers", r.workers());
            n.put("rate", r.rate());
            n.put("share", r.share());
            n.put("seconds", r.length().toSeconds());
            n.put("sliceSeconds", r.slice().toSeconds());
            n.put("published", r.published());
            n.put("handled", r.handled());
            ArrayNode slices = n.putArray("slices");
            for (int i = 0; i < r.millis().size(); i++) {
                ObjectNode slice = slices.addObject();
                slice.put("samples", r.millis().get(i).size());
                slice.put("p50Millis", r.p50(i));
                slice.put("p99Millis", r.p99(i));
            }
            n.put("deadTuples", r.deadTuples());
            n.put("liveTuples", r.liveTuples());
            n.put("autovacuums", r.autovacuums());
        }
        ArrayNode targets = root.putArray("targets");
        for (Targets.Target t : Targets.check(report)) {
            ObjectNode n = targets.addObject();
            n.put("target", t.target());
            n.put("measured", t.measured());
            if (t.met().isPresent()) {
                n.put("met", t.met().get());
            } else {
                n.putNull("met");
            }
        }
        strings(root.putArray("notes"), report.notes());
        strings(root.putArray("failures"), report.failures());
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the JSON report", e);
        }
    }

    private static ObjectNode caseNode(CaseResult c) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("database", c.database());
        n.put("scenario", c.scenario());
        n.put("form", c.form());
        n.put("workers", c.workers());
        n.put("messagesPerRun", c.messages());
        ObjectNode contenders = n.putObject("contenders");
        for (String name : c.contenders()) {
            ObjectNode k = contenders.putObject(name);
            ArrayNode rounds = k.putArray("rounds");
            for (Measurement m : c.rounds(name)) {
                ObjectNode r = rounds.addObject();
                r.put("messages", m.messages());
                r.put("seconds", m.seconds());
                r.put("perSecond", m.perSecond());
                number(r, "bytesPerMessage", m.bytesPerMessage());
            }
            if (c.has(name)) {
                Stats.Spread s = c.spread(name);
                k.put("best", s.best());
                k.put("median", s.median());
                k.put("worst", s.worst());
                number(k, "bytesPerMessage", c.bytesPerMessage(name));
            }
        }
        var ratio = c.ratio(CaseResult.TABLEQUEUE, CaseResult.RAW);
        if (ratio.isPresent()) {
            n.put("ratioToRaw", ratio.getAsDouble());
        }
        strings(n.putArray("failures"), c.failures());
        return n;
    }

    private static void number(ObjectNode node, String name, double value) {
        if (Double.isNaN(value)) {
            node.putNull(name);
        } else {
            node.put(name, value);
        }
    }

    private static ObjectNode strings(Map<String, String> values) {
        ObjectNode n = MAPPER.createObjectNode();
        values.forEach(n::put);
        return n;
    }

    private static void strings(ArrayNode array, List<String> values) {
        values.forEach(array::add);
    }
}
