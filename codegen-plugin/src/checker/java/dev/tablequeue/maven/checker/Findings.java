package dev.tablequeue.maven.checker;

import dev.tablequeue.maven.Protocol;
import java.util.function.Consumer;

/**
 * The check's report as it goes: each violation and warning is written the moment it is found, each naming
 * where it is (the binding's class and constant, the database, the table, the role, the column), and the
 * counts close the report.
 */
final class Findings {
    private final Consumer<String> out;
    private int violations;
    private int warnings;

    Findings(Consumer<String> out) {
        this.out = out;
    }

    /** Where a finding is: a binding on a database, with its table, and the role and column where known. */
    record Where(String binding, String database, String table, String role, String column) {
        Where(String binding, String database, String table) {
            this(binding, database, table, null, null);
        }

        Where role(String name, String column) {
            return new Where(binding, database, table, name, column);
        }

        @Override
        public String toString() {
            StringBuilder s = new StringBuilder(binding).append(" on ").append(database);
            if (table != null) {
                s.append(": table \"").append(table).append('"');
            }
            if (role != null) {
                s.append(", ").append(role);
            }
            if (column != null) {
                s.append(", column \"").append(column).append('"');
            }
            return s.toString();
        }
    }

    /** A violation: the build fails. */
    void violation(Where where, String message) {
        violations++;
        emit(Protocol.ERROR, where + ": " + message);
    }

    /** A statement the server refuses: the violation, then its SQL on a line of its own. */
    void statement(Where where, String purpose, String sql, String serverError) {
        violations++;
        out.accept(Protocol.line(Protocol.ERROR, where + ", statement \"" + purpose + "\": does not prepare: "
                + oneLine(serverError)));
        out.accept(Protocol.line(Protocol.ERROR, "    SQL: " + sql));
    }

    /** A violation that belongs to no binding (a database that cannot be reached or migrated). */
    void violation(String message) {
        violations++;
        emit(Protocol.ERROR, message);
    }

    /** A warning: the build fails only with failOnWarning. */
    void warning(Where where, String message) {
        warnings++;
        emit(Protocol.WARN, where + ": " + message);
    }

    /** A warning that belongs to no binding (a migration the check does not run). */
    void warning(String message) {
        warnings++;
        emit(Protocol.WARN, message);
    }

    /** A database left out, said aloud. */
    void skipped(String message) {
        emit(Protocol.SKIP, message);
    }

    /** A line outside the report, which the goal logs at debug level. */
    void debug(String message) {
        out.accept(message);
    }

    void info(String message) {
        emit(Protocol.INFO, message);
    }

    /** Writes {@code text} at {@code level}, a line of it per report line (a server's or Flyway's message may have several). */
    private void emit(String level, String text) {
        String[] lines = text.split("\\R");
        for (int i = 0; i < lines.length; i++) {
            if (i == 0 || !lines[i].isBlank()) {
                out.accept(Protocol.line(level, i == 0 ? lines[i] : "    " + lines[i].strip()));
            }
        }
    }

    int violations() {
        return violations;
    }

    /** Closes the report with its counts. */
    void end() {
        info(violations + " violation(s), " + warnings + " warning(s)");
        out.accept(Protocol.line(Protocol.RESULT, violations + " " + warnings));
    }

    private static String oneLine(String text) {
        return text == null ? "(no message)" : text.replaceAll("\\s*\\R\\s*", " ").trim();
    }
}
