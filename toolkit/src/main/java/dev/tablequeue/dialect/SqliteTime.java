package dev.tablequeue.dialect;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import org.jooq.impl.AbstractConverter;

/**
 * The one layout of time a SQLite queue table keeps: UTC text with milliseconds,
 * {@code 2026-11-30T04:00:00.000+00:00}, which is what
 * {@code strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')} writes. SQLite compares times as text, so every row
 * must hold this layout; this converter lets jOOQ classes read and write such columns as
 * {@link OffsetDateTime} (use it as a forced type in code generation).
 */
public final class SqliteTime extends AbstractConverter<String, OffsetDateTime> {
    private static final long serialVersionUID = 1L;

    /** The SQL expression of "now" in this layout. */
    public static final String NOW_SQL = "strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')";

    private static final DateTimeFormatter FORMAT = new DateTimeFormatterBuilder()
            .appendPattern("yyyy-MM-dd'T'HH:mm:ss")
            .appendFraction(ChronoField.MILLI_OF_SECOND, 3, 3, true)
            .appendLiteral("+00:00")
            .toFormatter();

    private static final DateTimeFormatter PARSE = DateTimeFormatter.ISO_OFFSET_DATE_TIME;

    public SqliteTime() {
        super(String.class, OffsetDateTime.class);
    }

    /** {@code instant} as SQLite text in the queue's layout. */
    public static String format(Instant instant) {
        return FORMAT.format(instant.atOffset(ZoneOffset.UTC));
    }

    /** Reads text in the queue's layout (or any ISO offset date-time) back. */
    public static OffsetDateTime parse(String text) {
        return OffsetDateTime.parse(text, PARSE).withOffsetSameInstant(ZoneOffset.UTC);
    }

    @Override
    public OffsetDateTime from(String text) {
        return text == null ? null : parse(text);
    }

    @Override
    public String to(OffsetDateTime time) {
        return time == null ? null : format(time.toInstant());
    }
}
