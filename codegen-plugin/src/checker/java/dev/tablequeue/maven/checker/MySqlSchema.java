package dev.tablequeue.maven.checker;

/**
 * MySQL and MariaDB: MariaDB keeps a {@code JSON} column as {@code LONGTEXT} (with a check), so a jOOQ
 * class's JSON and a text column are one; there are no partial indexes.
 */
final class MySqlSchema implements SchemaDialect {
    @Override
    public boolean matches(TypeFamily declared, TypeFamily migrated) {
        return declared == migrated || (declared == TypeFamily.JSON && migrated == TypeFamily.TEXT);
    }
}
