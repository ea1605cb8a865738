package dev.tablequeue.bench;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Draws throughput against workers as SVG: one panel per database and form, tablequeue's median as a solid
 * line and raw JDBC's as a dashed one, each point with a whisker from worst to best; db-scheduler's line
 * (dotted) joins every PostgreSQL panel. Only the main consumption scenario is drawn.
 */
final class SvgChart {
    static final String TABLEQUEUE_COLOUR = "#1f6fb4";
    static final String RAW_COLOUR = "#555555";
    static final String DB_SCHEDULER_COLOUR = "#e07b00";

    private static final List<String> FORMS = List.of(Forms.ROW_LOCK, Forms.LEASE, Forms.ADVISORY);
    private static final int PANEL_W = 320;
    private static final int PANEL_H = 240;
    private static final int LEFT = 64;
    private static final int RIGHT = 16;
    private static final int TOP = 34;
    private static final int BOTTOM = 40;
    private static final int HEADER = 56;

    private SvgChart() {}

    /** One line of a panel: a contender's points, in worker order. */
    record Series(String name, String colour, String dash, List<Point> points) {}

    /** A point: workers, median, best and worst messages per second. */
    record Point(int workers, double median, double best, double worst) {}

    static String render(BenchReport report) {
        Set<String> databases = new LinkedHashSet<>();
        Set<Integer> workerSet = new java.util.TreeSet<>();
        for (CaseResult c : report.cases()) {
            if (c.scenario().equals(Scenarios.CONSUME)) {
                databases.add(c.database());
                workerSet.add(c.workers());
            }
        }
        List<Integer> workers = List.copyOf(workerSet);
        int width = FORMS.size() * PANEL_W;
        int height = HEADER + Math.max(1, databases.size()) * PANEL_H;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">%n", width, height, width,
                height));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
        svg.append("<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">Messages per second against"
                + " workers (median; whiskers: worst to best)</text>\n");
        legend(svg, 10, 40);
        int row = 0;
        for (String database : databases) {
            for (int col = 0; col < FORMS.size(); col++) {
                String form = FORMS.get(col);
                List<Series> series = series(report, database, form);
                panel(svg, col * PANEL_W, HEADER + row * PANEL_H, database + " - " + form, workers, series);
            }
            row++;
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    /** The lines of one panel. */
    static List<Series> series(BenchReport report, String database, String form) {
        List<Series> series = new ArrayList<>();
        series.add(new Series(CaseResult.TABLEQUEUE, TABLEQUEUE_COLOUR, "",
                points(report, database, form, CaseResult.TABLEQUEUE)));
        series.add(new Series(CaseResult.RAW, RAW_COLOUR, "6,4", points(report, database, form, CaseResult.RAW)));
        List<Point> peer = points(report, database, Forms.DB_SCHEDULER, CaseResult.DB_SCHEDULER);
        if (!peer.isEmpty()) {
            series.add(new Series(CaseResult.DB_SCHEDULER, DB_SCHEDULER_COLOUR, "2,3", peer));
        }
        series.removeIf(s -> s.points().isEmpty());
        return series;
    }

    private static List<Point> points(BenchReport report, String database, String form, String contender) {
        List<Point> points = new ArrayList<>();
        report.cases().stream()
                .filter(c -> c.database().equals(database) && c.scenario().equals(Scenarios.CONSUME)
                        && c.form().equals(form) && c.has(contender))
                .sorted((a, b) -> Integer.compare(a.workers(), b.workers()))
                .forEach(c -> {
                    Stats.Spread s = c.spread(contender);
                    points.add(new Point(c.workers(), s.median(), s.best(), s.worst()));
                });
        return points;
    }

    private static void legend(StringBuilder svg, int x, int y) {
        String[][] items = {
            {CaseResult.TABLEQUEUE, TABLEQUEUE_COLOUR, ""},
            {CaseResult.RAW, RAW_COLOUR, "6,4"},
            {CaseResult.DB_SCHEDULER + " (PostgreSQL)", DB_SCHEDULER_COLOUR, "2,3"},
        };
        for (String[] item : items) {
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\""
                    + " stroke-width=\"2\"%s/>%n", x, y - 4, x + 24, y - 4, item[1], dash(item[2])));
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>%n", x + 30, y, escape(item[0])));
            x += 40 + item[0].length() * 7;
        }
    }

    private static void panel(StringBuilder svg, int x0, int y0, String title, List<Integer> workers,
            List<Series> series) {
        int plotW = PANEL_W - LEFT - RIGHT;
        int plotH = PANEL_H - TOP - BOTTOM;
        int px = x0 + LEFT;
        int py = y0 + TOP;
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s</text>%n", px,
                y0 + 20, escape(title)));
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\""
                + " stroke=\"#cccccc\"/>%n", px, py, plotW, plotH));
        if (series.isEmpty()) {
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"#888888\">not served / not"
                    + " measured</text>%n", px + 20, py + plotH / 2));
            return;
        }
        double top = niceCeiling(series.stream().flatMap(s -> s.points().stream()).mapToDouble(Point::best)
                .max().orElse(1));
        for (int i = 0; i <= 4; i++) {
            double value = top * i / 4;
            int y = py + plotH - (int) Math.round(plotH * i / 4.0);
            svg.append(String.format(Locale.ROOT,
                    "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#eeeeee\"/>%n", px, y, px + plotW, y));
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n",
                    px - 6, y + 4, String.format(Locale.ROOT, "%,.0f", value)));
        }
        for (int w : workers) {
            int x = xOf(w, workers, px, plotW);
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%d</text>%n", x,
                    py + plotH + 16, w));
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#666666\">"
                + "workers</text>%n", px + plotW / 2, py + plotH + 32));
        for (Series s : series) {
            StringBuilder path = new StringBuilder();
            for (Point p : s.points()) {
                int x = xOf(p.workers(), workers, px, plotW);
                path.append(path.isEmpty() ? "" : " ").append(x).append(',').append(yOf(p.median(), top, py, plotH));
                svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\"/>%n",
                        x, yOf(p.best(), top, py, plotH), x, yOf(p.worst(), top, py, plotH), s.colour()));
                svg.append(String.format(Locale.ROOT, "<circle cx=\"%d\" cy=\"%d\" r=\"3\" fill=\"%s\">"
                        + "<title>%s, %d worker(s): %,.0f msg/s</title></circle>%n", x, yOf(p.median(), top, py, plotH),
                        s.colour(), escape(s.name()), p.workers(), p.median()));
            }
            svg.append(String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\""
                    + " stroke-width=\"2\"%s><title>%s</title></polyline>%n", path, s.colour(), dash(s.dash()),
                    escape(s.name())));
        }
    }

    private static int xOf(int workers, List<Integer> all, int px, int plotW) {
        int i = Math.max(0, all.indexOf(workers));
        if (all.size() == 1) {
            return px + plotW / 2;
        }
        return px + 12 + (int) Math.round((plotW - 24) * i / (double) (all.size() - 1));
    }

    private static int yOf(double value, double top, int py, int plotH) {
        return py + plotH - (int) Math.round(plotH * Math.min(value, top) / top);
    }

    /** The smallest of 1, 2, 2.5 or 5 times a power of ten at or above {@code value}. */
    static double niceCeiling(double value) {
        if (value <= 0) {
            return 1;
        }
        double power = Math.pow(10, Math.floor(Math.log10(value)));
        for (double step : new double[] {1, 2, 2.5, 5, 10}) {
            if (step * power >= value) {
                return step * power;
            }
        }
        return 10 * power;
    }

    private static String dash(String pattern) {
        return pattern.isEmpty() ? "" : " stroke-dasharray=\"" + pattern + "\"";
    }

    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
