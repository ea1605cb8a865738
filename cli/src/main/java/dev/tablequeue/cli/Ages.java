package dev.tablequeue.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** Ages on the command line: {@code 90s}, {@code 15m}, {@code 12h}, {@code 7d}, or ISO-8601 ({@code PT1H30M}). */
final class Ages implements CommandLine.ITypeConverter<Duration> {
    private static final Pattern SHORT = Pattern.compile("(\\d+)([smhd])");

    @Override
    public Duration convert(String value) {
        Matcher m = SHORT.matcher(value.trim());
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
        }
        try {
            return Duration.parse(value.trim());
        } catch (DateTimeParseException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not an age: write 90s, 15m, 12h, 7d"
                    + " or an ISO-8601 duration such as PT1H30M");
        }
    }

    /** {@code age} for a person: {@code 2d 3h}, {@code 1h 15m}, {@code 4m 10s}, {@code 12s}. */
    static String format(Duration age) {
        long s = age.toSeconds();
        if (s >= 86_400) {
            return (s / 86_400) + "d " + (s % 86_400 / 3600) + "h";
        }
        if (s >= 3600) {
            return (s / 3600) + "h " + (s % 3600 / 60) + "m";
        }
        if (s >= 60) {
            return (s / 60) + "m " + (s % 60) + "s";
        }
        return s + "s";
    }
}
