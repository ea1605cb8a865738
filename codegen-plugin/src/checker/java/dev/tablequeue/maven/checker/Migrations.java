package dev.tablequeue.maven.checker;

import java.util.List;
import java.util.Map;
import org.flywaydb.core.Flyway;

/** Runs the project's Flyway migrations into a scratch database, as the service's own Flyway would. */
final class Migrations {
    private Migrations() {}

    /** Applies the migrations at {@code locations} with {@code placeholders}, and returns how many it applied. */
    static int migrate(String url, List<String> locations, Map<String, String> placeholders) {
        return Flyway.configure(Thread.currentThread().getContextClassLoader())
                .dataSource(url, null, null)
                .locations(locations.toArray(String[]::new))
                .placeholders(placeholders)
                .cleanDisabled(true)
                .load()
                .migrate()
                .migrationsExecuted;
    }
}
