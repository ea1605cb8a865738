package dev.tablequeue.maven.checker;

import dev.tablequeue.DialectException;
import dev.tablequeue.binding.KeyPart;
import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.StartRules;
import dev.tablequeue.dialect.BindingStatements;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.QueueInserts;
import dev.tablequeue.dialect.Statement;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.jooq.Field;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * Everything the check asks of one binding on one migrated database: that its table is there, that each role's
 * column is there with a type the role can carry, that the jOOQ class matches the table, that the dead-letter
 * table has what the move writes, that every statement the broker will run prepares on the server, and (as
 * warnings) that an index serves the claim.
 */
final class BindingCheck {
    private final BindingScanner.Found found;
    private final Target target;
    private final Findings findings;
    private final Findings.Where where;
    private final Set<String> missing = new HashSet<>();
    private final Columns columns;
    /** How the start's refusals name what they refuse, after "start() refuses ". */
    private static final String SUBSCRIPTIONS = "its subscriptions";

    BindingCheck(BindingScanner.Found found, Target target, Findings findings) {
        this.found = found;
        this.target = target;
        this.findings = findings;
        this.where = new Findings.Where(found.label(), target.label(), found.binding().tableName());
        this.columns = new Columns(target, findings, missing);
    }

    /** Runs the check, with {@code deadLetterTable} the dead-letter table of the binding's subscriptions (or null). */
    void run(String deadLetterTable) throws SQLException {
        RoleBinding<?> binding = found.binding();
        int before = findings.violations();
        Optional<TableShape> table = shape(binding.table());
        if (table.isEmpty()) {
            findings.violation(where, "the migrated schema has no such table (the jOOQ class names it): renamed or"
                    + " dropped by a migration, or the classes were generated from another migration state");
            return;
        }
        roles(binding, table.get());
        if (binding.table().fields().length > 0) {
            Drift.check(binding.table(), table.get(), target.schemaDialect(), where, findings, missing);
        }
        Table<?> deadLetter = deadLetterTable == null ? null : DSL.table(DSL.name(deadLetterTable.split("\\.")));
        if (deadLetter != null) {
            deadLetterColumns(binding, deadLetter);
        }
        int statements = statements(binding, deadLetter);
        ClaimIndex.check(binding, table.get(), where, findings);
        if (findings.violations() == before) {
            findings.info(where + ": " + statements + " statements prepared, " + binding.roles().size()
                    + " roles, " + table.get().columns().size() + " columns and the jOOQ class checked");
        }
    }

    private Optional<TableShape> shape(Table<?> table) throws SQLException {
        return columns.shape(table);
    }

    private void roles(RoleBinding<?> binding, TableShape table) {
        for (Map.Entry<Role, Field<?>> e : binding.roles().entrySet()) {
            Role role = e.getKey();
            String name = e.getValue().getName();
            Findings.Where at = where.role("role " + role.setting(), name);
            Optional<TableShape.Column> column = column(table, name, at);
            if (column.isEmpty()) {
                continue;
            }
            columns.carries(column.get(), role.setting(), RoleTypes.allowed(role, target.schemaDialect()),
                    RoleTypes.nullable(role), at);
            if (role == Role.ID && !table.isKey(name)) {
                findings.violation(at, "the id is not a key of the migrated table (no primary key or unique index on"
                        + " it alone), so a settlement could change more than its row");
            }
        }
        for (Field<?> f : binding.headerFields()) {
            column(table, f.getName(), where.role("headerFields", f.getName()));
        }
        for (Field<?> f : binding.data()) {
            column(table, f.getName(), where.role("data", f.getName()));
        }
        for (KeyPart part : binding.advisoryKey()) {
            if (part instanceof KeyPart.Column c) {
                column(table, c.field().getName(), where.role("advisory key", c.field().getName()));
            }
        }
    }

    private Optional<TableShape.Column> column(TableShape table, String name, Findings.Where at) {
        return columns.column(table, name, at);
    }

    private void deadLetterColumns(RoleBinding<?> binding, Table<?> deadLetter) throws SQLException {
        Findings.Where at = where.role("dead-letter table \"" + deadLetter.getName() + "\"", null);
        Optional<TableShape> target = shape(deadLetter);
        if (target.isEmpty()) {
            findings.violation(at, "the migrated schema has no such table");
            return;
        }
        for (Field<?> f : binding.rowColumns()) {
            if (target.get().column(f.getName()).isEmpty()) {
                findings.violation(at.role(at.role(), f.getName()), "the dead-letter table has no such column, and the"
                        + " move of a row of \"" + binding.tableName() + "\" writes it");
            }
        }
    }

    /**
     * Runs on the binding every rule a subscription's start runs ({@link StartRules}, the project's toolkit's own),
     * for the widest subscription it may have, then prepares the publish's insert and notification; returns how
     * many statements were prepared. Each refusal is a violation.
     */
    private int statements(RoleBinding<?> binding, Table<?> deadLetter) {
        QueueDialect dialect = target.dialect();
        Consumer<StartRules.Refusal> refusals = this::refused;
        Optional<StartRules.Opened> opened = StartRules.subscription(dialect, target.connection(), binding,
                StartRules.Variant.widest(binding, deadLetter), SUBSCRIPTIONS, refusals);
        if (opened.isEmpty()) {
            return 0;
        }
        int prepared = opened.get().prepared();
        QueueInserts inserts;
        try {
            inserts = BindingStatements.inserts(dialect, binding);
        } catch (DialectException e) {
            refused(new StartRules.Refusal(e, null, null));
            return prepared;
        }
        prepared += StartRules.insert(dialect, target.connection(), binding, inserts, SUBSCRIPTIONS + " and publishes",
                refusals);
        for (Statement notify : BindingStatements.notify(dialect, binding)) {
            try {
                dialect.prepare(target.connection(), notify);
                prepared++;
            } catch (SQLException e) {
                findings.statement(where, notify.purpose(), notify.sql(), e.getMessage());
            }
        }
        return prepared;
    }

    /** One refusal of the start's rules, as the check reports it. */
    private void refused(StartRules.Refusal refusal) {
        if (refusal.statement() != null) {
            findings.statement(where, refusal.statement().purpose(), refusal.statement().sql(),
                    refusal.cause().getMessage());
        } else if (refusal.exception() instanceof DialectException e) {
            findings.violation(where, "the " + target.dialect().name() + " dialect refuses the binding: "
                    + e.getMessage());
        } else {
            findings.violation(where, "start() refuses " + refusal.exception().getMessage());
        }
    }
}
