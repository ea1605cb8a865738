package dev.tablequeue.test;

import java.util.Locale;
import org.jooq.SQLDialect;

/** The databases a {@link TableQueueDatabase} gives a test class. */
public enum Engine {
    /** PostgreSQL: {@code TABLEQUEUE_POSTGRES_URL}, else a container of {@code postgres:15-alpine}. */
    POSTGRES("postgres", "postgres:15-alpine", "postgresql"),
    /** MariaDB: {@code TABLEQUEUE_MARIADB_URL}, else a container of {@code mariadb:10.11}. */
    MARIADB("mariadb", "mariadb:10.11", "mariadb"),
    /** MySQL 8: {@code TABLEQUEUE_MYSQL_URL}, else a container of {@code mysql:8.4}. */
    MYSQL("mysql", "mysql:8.4", "mysql"),
    /** SQLite: a fresh file in a temporary folder, deleted after the class. Needs no server. */
    SQLITE("sqlite", null, "sqlite");

    private final String key;
    private final String image;
    private final String folder;

    Engine(String key, String image, String folder) {
        this.key = key;
        this.image = image;
        this.folder = folder;
    }

    /** The environment variable that names this server's administrative JDBC URL; null for SQLite. */
    public String variable() {
        return this == SQLITE ? null : "TABLEQUEUE_" + key.toUpperCase(Locale.ROOT) + "_URL";
    }

    /** The system property read where {@link #variable()} is not set; null for SQLite. */
    public String property() {
        return this == SQLITE ? null : "tablequeue." + key + ".url";
    }

    /** jOOQ's dialect for a test's own statements on this engine. */
    public SQLDialect sqlDialect() {
        return switch (this) {
            case POSTGRES -> SQLDialect.POSTGRES;
            case MARIADB -> SQLDialect.MARIADB;
            case MYSQL -> SQLDialect.MYSQL;
            case SQLITE -> SQLDialect.SQLITE;
        };
    }

    /** The image a container of this engine runs by default; null for SQLite. */
    public String defaultImage() {
        return image;
    }

    /**
     * The name of this engine's folder in a service's per-database migration layout (as Flyway's
     * {@code {vendor}} placeholder spells it: {@code db/migration/postgresql}, {@code ../mariadb}, {@code ../mysql},
     * {@code ../sqlite}).
     */
    public String folder() {
        return folder;
    }
}
