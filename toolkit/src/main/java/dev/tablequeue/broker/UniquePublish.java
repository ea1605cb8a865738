package dev.tablequeue.broker;

import dev.tablequeue.SchemaException;
import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.UniqueInsert;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jooq.Field;

/**
 * The publish into a table with a unique key ({@code uniqueKey(..)}, {@code uniqueKeyWhilePending(..)}): each row
 * goes through the dialect's {@link UniqueInsert}, one statement per row, in the publish's transaction, and a
 * row whose key a row holds already is reported as {@link PublishResult#keyTaken} with that row's id. A row
 * without a key (NULL) is an ordinary insert. Rows of one batch are written in order, so where two of them carry
 * one key, the second reports the first's row.
 *
 * <p>The table's unique index is checked the first time a binding is published through here, where the start
 * has not checked it (a binding no route or subscription of the broker names): on MySQL and MariaDB a table
 * without it would take every duplicate.
 */
final class UniquePublish {
    private final QueueDialect dialect;
    private final Map<RoleBinding<?>, UniqueInsert> inserts = new ConcurrentHashMap<>();
    private final Set<RoleBinding<?>> checked = ConcurrentHashMap.newKeySet();

    UniquePublish(QueueDialect dialect) {
        this.dialect = dialect;
    }

    /** Marks {@code binding}'s index as checked by the start's rules. */
    void checked(RoleBinding<?> binding) {
        checked.add(binding);
    }

    /**
     * Writes each row of {@code values} (the insert's values, in order) unless its key is taken, with
     * {@code ordinary} writing a row that has no key, and returns each row's result in order.
     */
    List<PublishResult> write(Connection c, RoleBinding<?> binding, List<List<Object>> values, BrokerInserts ordinary)
            throws SQLException {
        UniqueInsert unique = insert(binding);
        if (!checked.contains(binding)) {
            Optional<String> problem = unique.indexProblem(c);
            if (problem.isPresent()) {
                throw new SchemaException("publish: " + problem.get());
            }
            checked.add(binding);
        }
        Field<?> id = binding.id();
        int key = binding.insertColumns().stream().map(Field::getName).toList()
                .indexOf(binding.column(Role.UNIQUE_KEY).orElseThrow().getName());
        List<PublishResult> results = new ArrayList<>(values.size());
        for (List<Object> row : values) {
            if (key < 0 || row.get(key) == null) {
                Object written = ordinary.write(c, binding, List.of(row)).get(0);
                results.add(PublishResult.inserted(binding.tableName(), written));
                continue;
            }
            UniqueInsert.Written written = unique.insert(c, row);
            Object rowId = written.id() == null ? null : id.getDataType().convert(written.id());
            results.add(written.inserted() ? PublishResult.inserted(binding.tableName(), rowId)
                    : PublishResult.keyTaken(binding.tableName(), rowId));
        }
        return results;
    }

    private UniqueInsert insert(RoleBinding<?> binding) {
        return inserts.computeIfAbsent(binding, b -> dialect.uniqueInsert(b).orElseThrow(() -> new SchemaException(
                "publish: table \"" + b.tableName() + "\" declares a unique key, and the " + dialect.name()
                        + " dialect has no unique publish")));
    }
}
