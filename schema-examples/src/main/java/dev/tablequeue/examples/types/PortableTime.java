package dev.tablequeue.examples.types;

import dev.tablequeue.dialect.SqliteTime;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.jooq.Converter;
import org.jooq.SQLDialect;
import org.jooq.impl.SQLDataType;

/**
 * The example tables' times as {@link OffsetDateTime} in UTC, on every database: a {@code TIMESTAMPTZ} on
 * PostgreSQL, a {@code DATETIME(6)} holding UTC on MySQL and MariaDB (which have no time-zone-aware type; the
 * toolkit writes and reads those columns as UTC too), and text in {@link SqliteTime}'s layout on SQLite (the
 * layout the toolkit compares). The generator declares the time columns {@code TIMESTAMP WITH TIME ZONE}
 * with this binding.
 */
public final class PortableTime extends PortableBinding<OffsetDateTime> {
    private static final long serialVersionUID = 1L;

    private static final Kept<OffsetDateTime, OffsetDateTime> ZONED = Kept.of(SQLDataType.TIMESTAMPWITHTIMEZONE,
            Converter.ofNullable(OffsetDateTime.class, OffsetDateTime.class, t -> t, t -> t));

    private static final Kept<LocalDateTime, OffsetDateTime> UTC_LOCAL = Kept.of(SQLDataType.LOCALDATETIME,
            Converter.ofNullable(LocalDateTime.class, OffsetDateTime.class,
                    local -> local.atOffset(ZoneOffset.UTC),
                    time -> time.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime()));

    private static final Kept<String, OffsetDateTime> SQLITE_TEXT = Kept.of(SQLDataType.VARCHAR, new SqliteTime());

    public PortableTime() {
        super(OffsetDateTime.class);
    }

    @Override
    Kept<?, OffsetDateTime> kept(SQLDialect family) {
        return switch (family) {
            case MYSQL, MARIADB -> UTC_LOCAL;
            case SQLITE -> SQLITE_TEXT;
            default -> ZONED;
        };
    }
}
