package dev.tablequeue.maven.checker;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZonedDateTime;
import java.util.Locale;
import java.util.Set;
import org.jooq.DataType;
import org.jooq.JSON;
import org.jooq.JSONB;

/**
 * The kind of value a column holds, coarse enough to compare what a jOOQ class declares with what a
 * database reports: a {@code VARCHAR(191)} and a {@code TEXT} are both text, a {@code SMALLINT} and a
 * {@code BIGINT} both integers.
 */
enum TypeFamily {
    INTEGER("an integer"),
    DECIMAL("a decimal"),
    FLOAT("a floating-point number"),
    TEXT("text"),
    BINARY("bytes"),
    TIMESTAMP("a timestamp"),
    TIMESTAMP_TZ("a timestamp with time zone"),
    DATE("a date"),
    TIME("a time of day"),
    BOOLEAN("a boolean"),
    JSON("JSON"),
    UUID("a UUID"),
    OTHER("another type");

    private static final Set<Class<?>> INTEGERS = Set.of(Byte.class, Short.class, Integer.class, Long.class,
            BigInteger.class, org.jooq.types.UByte.class, org.jooq.types.UShort.class, org.jooq.types.UInteger.class,
            org.jooq.types.ULong.class);

    private final String description;

    TypeFamily(String description) {
        this.description = description;
    }

    /** What the family holds, for messages ("an integer", "text"). */
    String description() {
        return description;
    }

    /** The family of what a jOOQ class declares, read off its SQL type (below any converter or binding). */
    static TypeFamily of(DataType<?> declared) {
        DataType<?> sql = declared.getSQLDataType() == null ? declared : declared.getSQLDataType();
        Class<?> type = sql.getType();
        if (INTEGERS.contains(type)) {
            return INTEGER;
        }
        if (type == BigDecimal.class) {
            return DECIMAL;
        }
        if (type == Float.class || type == Double.class) {
            return FLOAT;
        }
        if (type == String.class) {
            return TEXT;
        }
        if (type == byte[].class) {
            return BINARY;
        }
        if (type == OffsetDateTime.class || type == Instant.class || type == ZonedDateTime.class) {
            return TIMESTAMP_TZ;
        }
        if (type == LocalDateTime.class || type == java.sql.Timestamp.class) {
            return TIMESTAMP;
        }
        if (type == LocalDate.class || type == java.sql.Date.class) {
            return DATE;
        }
        if (type == LocalTime.class || type == OffsetTime.class || type == java.sql.Time.class) {
            return TIME;
        }
        if (type == Boolean.class) {
            return BOOLEAN;
        }
        if (type == JSON.class || type == JSONB.class) {
            return JSON;
        }
        if (type == java.util.UUID.class) {
            return UUID;
        }
        return OTHER;
    }

    /** The family of a column as JDBC metadata reports it: its {@code java.sql.Types} code and type name. */
    static TypeFamily ofJdbc(int code, String typeName) {
        String name = typeName == null ? "" : typeName.toLowerCase(Locale.ROOT);
        if (name.startsWith("json")) {
            return JSON;
        }
        if (name.equals("uuid")) {
            return UUID;
        }
        if (name.equals("timestamptz") || name.contains("with time zone")) {
            return TIMESTAMP_TZ;
        }
        return switch (code) {
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT -> INTEGER;
            case Types.DECIMAL, Types.NUMERIC -> DECIMAL;
            case Types.REAL, Types.FLOAT, Types.DOUBLE -> FLOAT;
            case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR, Types.NCHAR, Types.NVARCHAR, Types.LONGNVARCHAR,
                    Types.CLOB, Types.NCLOB -> TEXT;
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> BINARY;
            case Types.TIMESTAMP -> TIMESTAMP;
            case Types.TIMESTAMP_WITH_TIMEZONE -> TIMESTAMP_TZ;
            case Types.DATE -> DATE;
            case Types.TIME, Types.TIME_WITH_TIMEZONE -> TIME;
            case Types.BIT, Types.BOOLEAN -> BOOLEAN;
            default -> OTHER;
        };
    }
}
