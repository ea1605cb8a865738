package dev.tablequeue.dialect;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.Isolation;
import dev.tablequeue.binding.RoleBinding;
import java.util.ArrayList;
import java.util.List;
import org.jooq.Record;

/**
 * Bindings of a {@link QueueTable} in every combination of the roles that shape statements: no group, a
 * group or a FIFO group; priority, retry_after, attempt and processed_at each present or absent; each form;
 * the host's or the database's clock. The layout of the rest (payload with a headers column, payload with
 * header fields, row mode, payload alone), the last error and the declared level cycle along, so each
 * appears many times.
 *
 * <p>A copy of the toolkit's test helper of the same name, which the toolkit's own tests keep using (a module
 * cannot read another's test classes): a change to one belongs in both.
 */
final class RoleCombinations {
    private RoleCombinations() {}

    /** One binding and what it combines, for a test's name. */
    record Combination(String name, RoleBinding<Record> binding) {}

    static List<Combination> of(QueueTable<?> t) {
        List<Combination> all = new ArrayList<>();
        int n = 0;
        for (Form form : Form.values()) {
            for (int group = 0; group < 3; group++) {
                if (form == Form.ADVISORY && group == 2) {
                    continue; // FIFO groups are not taken in the advisory form
                }
                for (int roles = 0; roles < 16; roles++) {
                    for (boolean dbClock : new boolean[] {false, true}) {
                        if (dbClock && form == Form.LEASE) {
                            continue; // the lease form reads the host's clock
                        }
                        all.add(combination(t, form, group, roles, dbClock, n++));
                    }
                }
            }
        }
        return all;
    }

    private static Combination combination(QueueTable<?> t, Form form, int group, int roles, boolean dbClock, int n) {
        RoleBinding.Builder<Record> b = RoleBinding.of(t, t.ID);
        List<String> name = new ArrayList<>(List.of(form.name().toLowerCase()));
        if (group == 1) {
            b.group(t.GRP);
            name.add("group");
        } else if (group == 2) {
            b.fifoGroup(t.GRP);
            name.add("fifo");
        }
        if ((roles & 1) != 0) {
            b.priority(t.PRIORITY);
            name.add("priority");
        }
        if ((roles & 2) != 0) {
            b.retryAfter(t.RETRY_AFTER);
            name.add("retry_after");
        }
        if ((roles & 4) != 0) {
            b.attempt(t.ATTEMPT);
            name.add("attempt");
        }
        if ((roles & 8) != 0) {
            b.processedAt(t.PROCESSED_AT);
            name.add("processed_at");
        }
        switch (n % 4) {
            case 0 -> {
                b.payload(t.PAYLOAD).headers(t.HEADERS).partitionKey(t.PARTITION_KEY);
                name.add("payload+headers+partition_key");
            }
            case 1 -> {
                b.payload(t.PAYLOAD).headerFields(t.NOTE);
                name.add("payload+header_fields");
            }
            case 2 -> {
                b.data(t.NOTE, t.HEADERS);
                name.add("row_mode");
            }
            default -> {
                b.payload(t.PAYLOAD);
                name.add("payload");
            }
        }
        switch (form) {
            case LEASE -> b.lease(t.LOCKED_UNTIL);
            case ADVISORY -> b.advisory("q-{id}");
            case ROW_LOCK -> { }
        }
        if (n % 3 == 0) {
            b.lastError(t.LAST_ERROR);
            name.add("last_error");
        }
        if (dbClock) {
            b.databaseClock();
            name.add("database_clock");
        }
        Isolation level = Isolation.values()[n % Isolation.values().length];
        if (!(group == 2 && form == Form.ROW_LOCK && level == Isolation.SERIALIZABLE) && n % 5 != 0) {
            b.isolation(level);
            name.add(level.name().toLowerCase());
        }
        return new Combination(String.join(" ", name), b.build());
    }
}
