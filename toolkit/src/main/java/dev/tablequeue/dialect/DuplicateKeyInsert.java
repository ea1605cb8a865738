package dev.tablequeue.dialect;

import static dev.tablequeue.dialect.JooqPieces.unqualified;

import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.QueueInserts.Written;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.Jdbc;
import dev.tablequeue.internal.StatementWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jooq.Field;

/**
 * The unique publish of MySQL and MariaDB: {@code INSERT .. ON DUPLICATE KEY UPDATE k = k}, which writes nothing
 * where a unique index holds the row's key (not {@code INSERT IGNORE}, which would also turn a value too long for
 * its column into a truncated row). That clause fires on any unique index, the primary key too, and the driver
 * counts a row found as a row written; so what happened is read afterwards:
 *
 * <ul>
 *   <li>where the database generates the id, the driver returns the new id for a written row and no key where the
 *       insert wrote nothing (MariaDB Connector/J, proven on the server): only then is the holder read;</li>
 *   <li>the holder is read with a locking read ({@code FOR UPDATE}: the insert holds that row's lock already),
 *       which sees the newest version rather than the transaction's snapshot;</li>
 *   <li>where no row holds the key, the insert met another unique index (the id the message gave): that fails
 *       with an {@link SQLIntegrityConstraintViolationException} naming the table and the key, never silently;</li>
 *   <li>where the message gives the id, no generated key tells: the holder is read each time, and a holder with
 *       the message's own id counts as written (a publish again of the same id and key reads as inserted).</li>
 * </ul>
 */
final class DuplicateKeyInsert implements UniqueInsert {
    private final QueueDialect dialect;
    private final RoleBinding<?> binding;
    private final Field<?> key;
    private final Statement insert;
    private final Statement holder;
    private final int givenId;

    DuplicateKeyInsert(JooqQueueDialect dialect, RoleBinding<?> b) {
        this.dialect = dialect;
        this.binding = b;
        this.key = b.column(Role.UNIQUE_KEY).orElseThrow();
        StatementWriter w = dialect.writer();
        String k = w.render(unqualified(key));
        this.insert = w.fromNamed("unique insert", w.render(dialect.insertValues(w, b)) + " on duplicate key update "
                + k + " = " + k);
        this.holder = ConflictTargetInsert.keyHolder(dialect.writer(), b, key, true);
        this.givenId = b.insertColumns().stream().map(Field::getName).toList().indexOf(b.id().getName());
    }

    @Override
    public List<Statement> statements() {
        return List.of(insert, holder);
    }

    @Override
    public Written insert(Connection c, List<Object> values) throws SQLException {
        Binds row = new Binds().values(values);
        if (givenId < 0) {
            Object id = Jdbc.insertKey(c, insert, row, binding.id().getName(), dialect);
            if (id != null && !(id instanceof Number n && n.longValue() == 0L)) {
                return new Written(true, id);
            }
        } else {
            Jdbc.update(c, insert, row, dialect);
        }
        Object held = Jdbc.query(c, holder, row, dialect, rs -> rs.next() ? rs.getObject(1) : null);
        if (held == null) {
            throw new SQLIntegrityConstraintViolationException("the publish into \"" + binding.tableName()
                    + "\" met a row that holds another of its unique values (its id, or another unique index) and"
                    + " not its unique key \"" + key.getName() + "\" " + values.get(keyIndex()) + ": nothing was"
                    + " written [SQL: " + insert.sql() + "]", "23000");
        }
        if (givenId >= 0) {
            Object given = binding.id().getDataType().convert(values.get(givenId));
            return new Written(Objects.equals(given, binding.id().getDataType().convert(held)), held);
        }
        return new Written(false, held);
    }

    private int keyIndex() {
        return binding.insertColumns().stream().map(Field::getName).toList().indexOf(key.getName());
    }

    /**
     * Reads the table's unique indexes of one column (the information schema of the connection's database): a key
     * unique over every row needs one on the key column; a key held by pending rows needs one on a generated
     * column whose expression names the key and the processed-at column.
     */
    @Override
    public Optional<String> indexProblem(Connection c) throws SQLException {
        Map<String, List<String[]>> indexes = new LinkedHashMap<>();
        try (var ps = c.prepareStatement("select s.index_name, s.column_name, c.generation_expression"
                + " from information_schema.statistics s join information_schema.columns c"
                + " on c.table_schema = s.table_schema and c.table_name = s.table_name and c.column_name = s.column_name"
                + " where s.table_schema = database() and s.table_name = ? and s.non_unique = 0"
                + " order by s.index_name, s.seq_in_index")) {
            ps.setString(1, binding.table().getName());
            try (var rs = ps.executeQuery()) {
                while (rs.next()) {
                    indexes.computeIfAbsent(rs.getString(1), i -> new ArrayList<>())
                            .add(new String[] {rs.getString(2), rs.getString(3)});
                }
            }
        }
        String name = key.getName();
        boolean plain = false;
        boolean generated = false;
        for (List<String[]> columns : indexes.values()) {
            if (columns.size() != 1) {
                continue;
            }
            String column = columns.get(0)[0];
            String expression = columns.get(0)[1];
            plain |= column.equalsIgnoreCase(name);
            generated |= expression != null && !expression.isBlank() && names(expression, name)
                    && names(expression, binding.column(Role.PROCESSED_AT).map(Field::getName).orElse(name));
        }
        String table = "table \"" + binding.tableName() + "\"";
        if (binding.uniqueWhilePending() && !generated) {
            String processed = binding.column(Role.PROCESSED_AT).orElseThrow().getName();
            return Optional.of(table + " has no unique index on a generated column of column \"" + name + "\" for its"
                    + " pending rows, which uniqueKeyWhilePending(..) needs" + (plain ? " (its unique index on \""
                    + name + "\" holds the key in every row, acknowledged ones too)" : "") + ": migrate a column "
                    + "pending_" + name + " AS (IF(" + processed + " IS NULL, " + name + ", NULL)) with a unique index");
        }
        if (!binding.uniqueWhilePending() && !plain) {
            return Optional.of(table + " has no unique index on column \"" + name + "\" alone, which uniqueKey(..)"
                    + " needs: migrate CREATE UNIQUE INDEX .. ON " + binding.table().getName() + " (" + name + ")"
                    + (generated ? ", or declare uniqueKeyWhilePending(..) for its index on pending rows" : ""));
        }
        return Optional.empty();
    }

    /** Whether a generation expression names {@code column} (as an identifier, quoted or not). */
    private static boolean names(String expression, String column) {
        String e = expression.toLowerCase(Locale.ROOT).replace("`", "");
        return e.matches("(?s).*(^|[^a-z0-9_$])" + java.util.regex.Pattern.quote(column.toLowerCase(Locale.ROOT))
                + "($|[^a-z0-9_$]).*");
    }
}
