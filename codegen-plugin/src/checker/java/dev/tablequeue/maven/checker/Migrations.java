package dev.tablequeue.maven.checker;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.logging.Log;
import org.flywaydb.core.api.logging.LogCreator;

/** Runs the project's Flyway migrations into a scratch database, as the service's own Flyway would. */
final class Migrations {
    private Migrations() {}

    /**
     * Applies the migrations at {@code locations} with {@code placeholders}, and returns how many it applied.
     * Flyway's own log goes to {@code log}, which the goal shows at debug level: run in process, Flyway would
     * otherwise write to Maven's console through whatever logging the project's class path holds.
     */
    static int migrate(String url, List<String> locations, Map<String, String> placeholders, Consumer<String> log) {
        Sink.target = log;
        return Flyway.configure(Thread.currentThread().getContextClassLoader())
                .loggers(Sink.class.getName())
                .dataSource(url, null, null)
                .locations(locations.toArray(String[]::new))
                .placeholders(placeholders)
                .cleanDisabled(true)
                .load()
                .migrate()
                .migrationsExecuted;
    }

    /**
     * The log Flyway creates by class name ({@code loggers}): a check runs one migration at a time in its JVM or
     * class loader, so the target is a static field.
     */
    public static final class Sink implements LogCreator {
        static volatile Consumer<String> target = line -> {};

        @Override
        public Log createLogger(Class<?> type) {
            return new Forwarded(line -> target.accept(line));
        }
    }

    /** Flyway's log, a line for each message. */
    private record Forwarded(Consumer<String> log) implements Log {
        private void line(String level, String message) {
            log.accept("flyway: " + level + message);
        }

        @Override public void debug(String message) { line("", message); }
        @Override public void info(String message) { line("", message); }
        @Override public void notice(String message) { line("", message); }
        @Override public void warn(String message) { line("warning: ", message); }
        @Override public void error(String message) { line("error: ", message); }
        @Override public void error(String message, Exception e) { line("error: ", message + ": " + e); }
    }
}
