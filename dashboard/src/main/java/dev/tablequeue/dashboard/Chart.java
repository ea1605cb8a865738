package dev.tablequeue.dashboard;

import dev.tablequeue.broker.Throughput;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * A queue's throughput as a small bar chart in inline SVG: one bar per period, its height the rows acknowledged
 * in it. The SVG holds only numbers and times this class formats, never text from a table, so the page may
 * embed it unescaped.
 */
final class Chart {
    static final int WIDTH = 300;
    static final int HEIGHT = 48;
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private Chart() {}

    /** The chart of {@code t}. */
    static String svg(Throughput t) {
        int n = t.counts().size();
        long peak = Math.max(1, t.counts().stream().mapToLong(Long::longValue).max().orElse(0));
        double slot = (double) WIDTH / n;
        StringBuilder svg = new StringBuilder();
        svg.append("<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH)
                .append("\" height=\"").append(HEIGHT).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ')
                .append(HEIGHT).append("\" role=\"img\" aria-label=\"rows acknowledged per period\">");
        svg.append("<line x1=\"0\" y1=\"").append(HEIGHT - 0.5).append("\" x2=\"").append(WIDTH).append("\" y2=\"")
                .append(HEIGHT - 0.5).append("\" stroke=\"#c8ced6\"/>");
        for (int i = 0; i < n; i++) {
            long count = t.counts().get(i);
            double h = count == 0 ? 0 : Math.max(2, (HEIGHT - 4) * (double) count / peak);
            svg.append(String.format(Locale.ROOT,
                    "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"1.5\" fill=\"#3b82c4\">"
                            + "<title>%s–%s UTC: %d</title></rect>",
                    i * slot + 1, HEIGHT - 1 - h, slot - 2, h, CLOCK.format(t.start(i)), CLOCK.format(t.start(i + 1)),
                    count));
        }
        return svg.append("</svg>").toString();
    }

    /** In words: the total and the busiest period's count. */
    static String caption(Throughput t) {
        long total = t.counts().stream().mapToLong(Long::longValue).sum();
        long peak = t.counts().stream().mapToLong(Long::longValue).max().orElse(0);
        return total + " acknowledged in the last " + t.period().multipliedBy(t.counts().size()).toMinutes()
                + " min, at most " + peak + " per " + t.period().toMinutes() + " min";
    }
}
