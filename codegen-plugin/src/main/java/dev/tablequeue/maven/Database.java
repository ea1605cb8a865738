package dev.tablequeue.maven;

import java.util.List;
import java.util.Map;

/**
 * One database the check migrates and checks every binding on: an embedded SQLite file under the build
 * directory (neither {@code url} nor {@code container} given), a server reached through an administrative
 * JDBC {@code url}, or a Testcontainers {@code container}.
 *
 * <pre>{@code
 * <database>
 *   <url>jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres</url>
 *   <locations><location>classpath:db/migration/postgresql</location></locations>
 *   <bindings><binding>com.example.postgres</binding></bindings>
 * </database>
 * }</pre>
 */
public class Database {
    /** The name the report gives this database; by default the dialect's ("sqlite", "postgres", "mariadb", "mysql"). */
    String id;

    /**
     * An administrative JDBC URL of a PostgreSQL, MariaDB or MySQL server. The check creates a scratch
     * database of a unique name there ({@code tqcheck_<random>}), migrates it and drops it afterwards, also when
     * the check fails.
     */
    String url;

    /**
     * A Docker image to start with Testcontainers for the check: {@code postgres:16}, {@code mariadb:11},
     * {@code mysql:8.4}. Where no Docker engine can be reached the check fails and says to give a {@code url}.
     */
    String container;

    /** Whether a server that cannot be reached is skipped (said in the log) instead of failing the build. */
    boolean optional;

    /** This database's Flyway locations, in place of the goal's {@code locations}. */
    List<String> locations;

    /** Flyway placeholders for this database, over the goal's {@code placeholders}. */
    Map<String, String> placeholders;

    /** The bindings checked on this database, in place of the goal's {@code bindings}. */
    List<String> bindings;

    /** Bindings left out on this database, beside the goal's {@code excludes}. */
    List<String> excludes;

    /** The report's name of this database, for messages of the goal. */
    String describe(int index) {
        if (id != null && !id.isBlank()) {
            return id;
        }
        if (url != null && !url.isBlank()) {
            return url.replaceAll("password=[^&]*", "password=***");
        }
        return container != null && !container.isBlank() ? "container " + container : "database " + (index + 1) + " (sqlite)";
    }
}
