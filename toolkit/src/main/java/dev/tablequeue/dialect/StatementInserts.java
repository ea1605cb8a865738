package dev.tablequeue.dialect;

import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.Jdbc;
import dev.tablequeue.transport.LeadingInsert;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.jooq.Field;

/**
 * The inserts of the built-in dialects ({@link QueueInserts}): one JDBC batch of the insert, its ids read back
 * from the driver's generated keys; or, where the dialect gives a {@code RETURNING} form (SQLite, whose driver
 * reports no keys for a batch), that form once per row. A row with a unique key goes through the dialect's
 * {@link UniqueInsert}, one statement per row.
 */
final class StatementInserts implements QueueInserts {
    private final QueueDialect dialect;
    private final RoleBinding<?> binding;
    private final Statement insert;
    /** The insert returning the generated id, run once per row; null where the batch's generated keys are read. */
    private final Statement returningId;
    /** The publish of a row with a unique key; null where the table has none. */
    private final UniqueInsert unique;
    /** Where the insert writes the id column itself (the binding's insert values hold it); -1 where not. */
    private final int givenId;
    /** Where the insert's values hold the unique key; -1 where the table has none. */
    private final int key;
    /** The insert with a leading row, by leading insert (null: none), built the first time each is asked for. */
    private final Function<LeadingInsert, Statement> leadingStatement;
    private final Map<LeadingInsert, Optional<Leading>> leadings = new ConcurrentHashMap<>();

    /**
     * @param returningId the insert returning the generated id, run once per row; null where the batch's
     *     generated keys are read
     * @param unique the publish of a row with a unique key; null where the table has none
     * @param leadingStatement the insert with a leading row ({@link QueueInserts#leading}), null where none
     */
    StatementInserts(QueueDialect dialect, RoleBinding<?> binding, Statement insert, Statement returningId,
            UniqueInsert unique, Function<LeadingInsert, Statement> leadingStatement) {
        this.dialect = dialect;
        this.binding = binding;
        this.insert = insert;
        this.returningId = returningId;
        this.unique = unique;
        this.givenId = indexOf(binding.insertColumns(), binding.id());
        this.key = binding.column(Role.UNIQUE_KEY).map(k -> indexOf(binding.insertColumns(), k)).orElse(-1);
        this.leadingStatement = leadingStatement;
    }

    @Override
    public Statement insert() {
        return insert;
    }

    @Override
    public List<Statement> statements() {
        List<Statement> all = new ArrayList<>();
        all.add(insert);
        if (returningId != null) {
            all.add(returningId);
        }
        if (unique != null) {
            all.addAll(unique.statements());
        }
        return List.copyOf(all);
    }

    @Override
    public List<Written> write(Connection c, List<List<Object>> values) throws SQLException {
        if (unique == null) {
            List<Written> written = new ArrayList<>(values.size());
            for (Object id : ids(c, values)) {
                written.add(new Written(true, id));
            }
            return written;
        }
        List<Written> written = new ArrayList<>(values.size());
        for (List<Object> row : values) {
            if (key < 0 || row.get(key) == null) {
                written.add(new Written(true, ids(c, List.of(row)).get(0)));
            } else {
                Written w = unique.insert(c, row);
                written.add(new Written(w.inserted(), convert(w.id())));
            }
        }
        return written;
    }

    /** Writes every row of {@code values} as ordinary inserts, and returns their ids in order. */
    private List<Object> ids(Connection c, List<List<Object>> values) throws SQLException {
        List<Binds> rows = new ArrayList<>(values.size());
        for (List<Object> row : values) {
            rows.add(new Binds().values(row));
        }
        Field<?> id = binding.id();
        List<Object> ids = new ArrayList<>(values.size());
        if (givenId >= 0) {
            Jdbc.updateEach(c, insert, rows, dialect);
            for (List<Object> row : values) {
                ids.add(row.get(givenId));
            }
        } else if (binding.isGenerated(id)) {
            ids.addAll(returningId != null ? Jdbc.queryEach(c, returningId, rows, dialect)
                    : Jdbc.insertEach(c, insert, rows, id.getName(), dialect));
        } else {
            Jdbc.updateEach(c, insert, rows, dialect);
            values.forEach(v -> ids.add(null));
        }
        ids.replaceAll(this::convert);
        return ids;
    }

    private Object convert(Object id) {
        return id == null ? null : binding.id().getDataType().convert(id);
    }

    @Override
    public Optional<String> indexProblem(Connection c) throws SQLException {
        return unique == null ? Optional.empty() : unique.indexProblem(c);
    }

    @Override
    public Optional<Leading> leading(LeadingInsert leading) {
        if (leadingStatement == null || unique != null) {
            return Optional.empty();
        }
        Optional<Leading> built = leadings.get(leading);
        return built != null ? built : leadings.computeIfAbsent(leading,
                l -> Optional.ofNullable(leadingStatement.apply(l)).map(s -> new LeadingStatement(s, l)));
    }

    /** The insert of a message's row with a leading row, its statement returning the leading id, then the row's. */
    private final class LeadingStatement implements Leading {
        private final Statement statement;
        private final LeadingInsert leading;

        LeadingStatement(Statement statement, LeadingInsert leading) {
            this.statement = statement;
            this.leading = leading;
        }

        @Override
        public Statement statement() {
            return statement;
        }

        @Override
        public Ids write(Connection c, List<Object> values, List<?> leadingValues) throws SQLException {
            List<Object> all = new ArrayList<>(values.size() + leadingValues.size());
            all.addAll(values);
            all.addAll(leadingValues);
            Ids ids = Jdbc.query(c, statement, new Binds().values(all), dialect, rs -> !rs.next() ? null
                    : new Ids(rs.getString(1), rs.getMetaData().getColumnCount() > 1 ? convert(rs.getObject(2)) : null));
            if (ids == null || ids.leadingId() == null) {
                throw new SQLException("the " + statement.purpose() + " into \"" + binding.tableName()
                        + "\" returned no id of \"" + leading.table().getName() + "\" [SQL: " + statement.sql() + "]");
            }
            return ids;
        }
    }

    private static int indexOf(List<Field<?>> columns, Field<?> column) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).getName().equals(column.getName())) {
                return i;
            }
        }
        return -1;
    }
}
