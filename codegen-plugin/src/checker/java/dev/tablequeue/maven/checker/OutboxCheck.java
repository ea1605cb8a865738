package dev.tablequeue.maven.checker;

import dev.tablequeue.TableQueueException;
import dev.tablequeue.binding.Role;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.outbox.OutboxBinding;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jooq.Field;

/**
 * What the check asks of one outbox record table on one migrated database: that the table is there, that the
 * id, name, payload, headers, processed_at and lease columns are there with types they can carry, that the
 * jOOQ class matches the table, and that every statement the outbox registry runs prepares on the server.
 *
 * <p>Loaded only where the project has {@code tablequeue-outbox} on its class path.
 */
final class OutboxCheck {
    private final BindingScanner.FoundOutbox found;
    private final Target target;
    private final Findings findings;
    private final Findings.Where where;
    private final Set<String> missing = new HashSet<>();
    private final Columns columns;

    OutboxCheck(BindingScanner.FoundOutbox found, Target target, Findings findings) {
        this.found = found;
        this.target = target;
        this.findings = findings;
        this.where = new Findings.Where(found.label(), target.label(), binding().tableName());
        this.columns = new Columns(target, findings, missing);
    }

    private OutboxBinding<?> binding() {
        return (OutboxBinding<?>) found.binding();
    }

    void run() throws SQLException {
        OutboxBinding<?> binding = binding();
        int before = findings.violations();
        Optional<TableShape> table = columns.shape(binding.table());
        if (table.isEmpty()) {
            findings.violation(where, "the migrated schema has no such table (the jOOQ class names it): renamed or"
                    + " dropped by a migration, or the classes were generated from another migration state");
            return;
        }
        Map<String, Field<?>> roles = roles(binding);
        for (Map.Entry<String, Field<?>> e : roles.entrySet()) {
            String setting = e.getKey();
            String name = e.getValue().getName();
            Findings.Where at = where.role("role " + setting, name);
            Optional<TableShape.Column> column = columns.column(table.get(), name, at);
            if (column.isEmpty()) {
                continue;
            }
            Role role = role(setting);
            columns.carries(column.get(), setting, RoleTypes.allowed(role, target.schemaDialect()),
                    RoleTypes.nullable(role), at);
            if (role == Role.ID && !table.get().isKey(name)) {
                findings.violation(at, "the id is not a key of the migrated table (no primary key or unique index on"
                        + " it alone), so a mark could change more than its record");
            }
        }
        if (binding.table().fields().length > 0) {
            Drift.check(binding.table(), table.get(), target.schemaDialect(), where, findings, missing);
        }
        int statements = statements(binding);
        if (findings.violations() == before) {
            findings.info(where + ": " + statements + " outbox statements prepared, " + roles.size() + " roles, "
                    + table.get().columns().size() + " columns and the jOOQ class checked");
        }
    }

    /** The record table's roles by their setting's name, the optional ones where declared. */
    private static Map<String, Field<?>> roles(OutboxBinding<?> binding) {
        Map<String, Field<?>> roles = new LinkedHashMap<>();
        roles.put("id", binding.id());
        roles.put("name", binding.name());
        roles.put("payload", binding.payload());
        binding.headers().ifPresent(f -> roles.put("headers", f));
        binding.processedAt().ifPresent(f -> roles.put("processedAt", f));
        binding.lease().ifPresent(f -> roles.put("lease", f));
        return roles;
    }

    /** The inbox role whose column rules a record table's role shares (a record's name is a group's text). */
    private static Role role(String setting) {
        return switch (setting) {
            case "id" -> Role.ID;
            case "name" -> Role.GROUP;
            case "payload" -> Role.PAYLOAD;
            case "headers" -> Role.HEADERS;
            case "processedAt" -> Role.PROCESSED_AT;
            case "lease" -> Role.LEASE;
            default -> throw new IllegalArgumentException(setting);
        };
    }

    /** Prepares every statement the outbox registry runs on the table; returns how many were prepared. */
    private int statements(OutboxBinding<?> binding) {
        List<Statement> every;
        try {
            every = binding.statements(target.dialect());
        } catch (TableQueueException | IllegalArgumentException e) {
            findings.violation(where, "the " + target.dialect().name() + " dialect refuses the record table: "
                    + e.getMessage());
            return 0;
        }
        int prepared = 0;
        for (Statement statement : every) {
            try {
                target.dialect().prepare(target.connection(), statement);
                prepared++;
            } catch (SQLException e) {
                findings.statement(where, statement.purpose(), statement.sql(), e.getMessage());
            }
        }
        return prepared;
    }
}
