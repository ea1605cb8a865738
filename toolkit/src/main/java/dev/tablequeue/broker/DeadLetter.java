package dev.tablequeue.broker;

import java.util.Objects;
import org.jooq.Table;

/**
 * Where a queue's rows go once their attempts are spent: another group of the same table
 * ({@link Mount#deadLetter}), or another table with the same columns ({@link Mount#deadLetterTable}).
 */
public sealed interface DeadLetter {

    /** Rows move into group {@code group} of their own table. */
    static DeadLetter group(String group) {
        return new ToGroup(group);
    }

    /** Rows move into {@code table}, which has the queue table's columns. */
    static DeadLetter table(Table<?> table) {
        return new ToTable(table);
    }

    /** A dead letter into another group of the queue's table. */
    record ToGroup(String group) implements DeadLetter {
        public ToGroup {
            Objects.requireNonNull(group, "group");
        }

        @Override
        public String toString() {
            return "group " + group;
        }
    }

    /** A dead letter into a table of its own. */
    record ToTable(Table<?> table) implements DeadLetter {
        public ToTable {
            Objects.requireNonNull(table, "table");
        }

        @Override
        public String toString() {
            return "table " + table.getName();
        }
    }
}
