package dev.tablequeue.maven.checker;

/**
 * MySQL and MariaDB: MariaDB keeps a {@code JSON} column as {@code LONGTEXT} (with a check), so a jOOQ
 * class's JSON and a text column are one; there is no time-zone-aware type, and the toolkit writes and reads
 * every time column as UTC, so a class that declares a zoned time (a forced type shared with another
 * database, such as the examples' {@code PortableTime}) over a {@code DATETIME} is served alike; there are no
 * partial indexes.
 */
final class MySqlSchema implements SchemaDialect {
    @Override
    public boolean matches(TypeFamily declared, TypeFamily migrated) {
        return declared == migrated
                || (declared == TypeFamily.JSON && migrated == TypeFamily.TEXT)
                || (declared == TypeFamily.TIMESTAMP_TZ && migrated == TypeFamily.TIMESTAMP);
    }
}
