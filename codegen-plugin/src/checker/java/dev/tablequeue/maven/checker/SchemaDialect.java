package dev.tablequeue.maven.checker;

import dev.tablequeue.dialect.QueueDialect;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import java.util.Set;

/**
 * What one database does differently when the check reads its schema: how its types fall into families,
 * which families hold the times the toolkit writes, and where it keeps the WHERE of a partial index.
 */
interface SchemaDialect {

    /** The schema dialect of the database {@code dialect} serves. */
    static SchemaDialect of(QueueDialect dialect) {
        return switch (dialect.sqlDialect().family()) {
            case POSTGRES -> new PostgresSchema();
            case SQLITE -> new SqliteSchema();
            default -> new MySqlSchema();
        };
    }

    /** The family of a column as the driver's metadata reports it. */
    default TypeFamily family(int jdbcType, String typeName) {
        return TypeFamily.ofJdbc(jdbcType, typeName);
    }

    /** The families a time role's column (retry_after, processed_at, the lease) may have here. */
    default Set<TypeFamily> timeFamilies() {
        return Set.of(TypeFamily.TIMESTAMP, TypeFamily.TIMESTAMP_TZ);
    }

    /** Whether a column the jOOQ class declares as {@code declared} matches a migrated column of {@code migrated}. */
    default boolean matches(TypeFamily declared, TypeFamily migrated) {
        return declared == migrated;
    }

    /** The WHERE of the partial index {@code index} of {@code table}, where the database keeps one. */
    default Optional<String> indexPredicate(Connection c, String schema, String table, String index)
            throws SQLException {
        return Optional.empty();
    }
}
