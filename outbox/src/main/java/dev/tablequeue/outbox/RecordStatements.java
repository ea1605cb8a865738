package dev.tablequeue.outbox;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tablequeue.dialect.ClaimShape;
import dev.tablequeue.dialect.ClaimedRows;
import dev.tablequeue.dialect.QueueClaims;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.Jdbc;
import dev.tablequeue.transport.LeadingInsert;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.conf.ParamType;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;

/**
 * The statements the outbox runs on one record table, rendered with jOOQ once for the database's dialect and
 * then run on JDBC prepared statements: the insert of a record, the fetch of a delivery's record, the mark,
 * the pages of the republish, the retention sweep, and (where the table has a lease column) the lease claim
 * of the periodic republish, which is tablequeue's own lease claim built by the dialect.
 */
final class RecordStatements {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, String>> HEADER_MAP = new TypeReference<>() {};

    private final OutboxBinding<?> binding;
    private final QueueDialect dialect;
    private final DSLContext render;
    private final boolean bytesPayload;
    final String insert;
    final String fetch;
    final String ack;
    final String sweep;
    /** The lease claim of the periodic republish; null where the table has no lease column. */
    private final QueueClaims claims;
    private final Map<Set<String>, String[]> pages = new ConcurrentHashMap<>();
    /** The record's insert as a transport that writes into a table writes it, first, in its own statement. */
    final LeadingInsert leading;
    /** The marks a tracked delivery writes in its settlement's transaction. */
    final RecordMarks marks;
    /** {@link #fetch}, run on the statement the connection keeps where the dialect keeps them. */
    private final Statement fetchById;
    /** The read of many records' marks, by how many ids it names. */
    private final Map<Integer, Statement> fetchByIds = new ConcurrentHashMap<>();

    RecordStatements(OutboxBinding<?> binding, QueueDialect dialect) {
        this.binding = binding;
        this.dialect = dialect;
        this.render = DSL.using(dialect.sqlDialect(), new Settings().withParamType(ParamType.INDEXED)
                .withRenderSchema(true));
        this.bytesPayload = binding.payload().getType() == byte[].class;
        this.insert = renderInsert();
        this.leading = new LeadingInsert(binding.table(), insertColumns(), binding.id(), Outbox.ID_HEADER);
        Field<?> id = binding.id();
        Condition byId = typed(id).eq(bind(id));
        this.fetch = render.render(binding.processedAt().isPresent()
                ? render.select(binding.processedAt().get()).from(binding.table()).where(byId)
                : render.select(id).from(binding.table()).where(byId));
        this.ack = binding.processedAt().isPresent()
                ? render.render(render.update(binding.table())
                        .set(java.util.Map.<Field<?>, Field<?>>of(binding.processedAt().get(), dialect.databaseNow()))
                        .where(byId).and(binding.processedAt().get().isNull()))
                : render.render(render.deleteFrom(binding.table()).where(byId));
        this.marks = new RecordMarks(binding, dialect, ack);
        this.fetchById = RecordMarks.byId("fetch", fetch);
        this.sweep = binding.processedAt()
                .map(p -> render.render(render.deleteFrom(binding.table()).where(typed(p).lt(bind(p)))))
                .orElse(null);
        if (binding.lease().isPresent()) {
            var lease = binding.leaseBinding();
            dialect.validate(lease);
            this.claims = dialect.claims(lease, ClaimShape.ROLES, false);
        } else {
            this.claims = null;
        }
    }

    /** The columns the insert writes, in the order of {@link #values}. */
    private List<Field<?>> insertColumns() {
        List<Field<?>> columns = new ArrayList<>(List.of(binding.name(), binding.payload()));
        binding.headers().ifPresent(columns::add);
        binding.lease().ifPresent(columns::add);
        return columns;
    }

    private String renderInsert() {
        List<Field<?>> columns = insertColumns();
        List<Field<?>> values = columns.stream().<Field<?>>map(RecordStatements::bind).toList();
        var insert = render.insertInto(binding.table()).columns(columns).values(values);
        // the driver reports the generated id (pgjdbc adds RETURNING itself; MySQL has none to render)
        return render.render(insert);
    }

    /** Every statement the registry runs on the table, each named by what it does, in the order prepared. */
    List<Statement> statements() {
        List<Statement> every = new ArrayList<>();
        all().forEach((purpose, sql) -> every.add(new Statement(purpose, sql, List.of())));
        return List.copyOf(every);
    }

    /** Every statement, with what it does. */
    private Map<String, String> all() {
        Map<String, String> all = new java.util.LinkedHashMap<>();
        all.put("insert", insert);
        all.put("fetch", fetch);
        all.put(binding.processedAt().isPresent() ? "mark" : "delete", ack);
        if (sweep != null) {
            all.put("sweep", sweep);
        }
        if (claims != null) {
            claims.statements().forEach(s -> all.put(s.purpose(), s.sql()));
        }
        return all;
    }

    QueueDialect dialect() {
        return dialect;
    }

    /** The JDBC values of a record's insert, in the order of its columns. */
    List<Object> values(String name, byte[] payload, Map<String, String> headers, Instant leaseUntil) {
        List<Object> values = new ArrayList<>(4);
        values.add(name);
        values.add(payloadValue(payload));
        if (binding.headers().isPresent()) {
            values.add(writeHeaders(headers));
        }
        if (binding.lease().isPresent()) {
            values.add(leaseUntil == null ? null : dialect.timeValue(binding.lease().get(), leaseUntil));
        }
        return values;
    }

    /** Writes a record with {@code values} (as {@link #values} gives them) and returns its id. */
    Object insert(Connection c, List<Object> values) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(insert, new String[] {binding.id().getName()})) {
            for (int i = 0; i < values.size(); i++) {
                ps.setObject(i + 1, values.get(i));
            }
            ps.executeUpdate();
            try (ResultSet rs = ps.getGeneratedKeys()) {
                if (!rs.next()) {
                    throw new SQLException("the insert returned no id");
                }
                return readId(rs, 1);
            }
        }
    }

    /** Whether the record {@code id} is processed: stamped, or gone. */
    boolean processed(Connection c, Object id) throws SQLException {
        return Jdbc.query(c, fetchById, new Binds().id(id), dialect,
                rs -> !rs.next() || binding.processedAt().isPresent() && rs.getObject(1) != null);
    }

    /**
     * Whether each of the records {@code ids} is processed, in one statement: true where it is stamped, false
     * where it is not, and null where no row came back for the id as given (gone, or named otherwise than the
     * database compares it: a text id in another case), which {@link #processed(Connection, Object)} tells.
     */
    Boolean[] processed(Connection c, List<Object> ids) throws SQLException {
        Statement read = fetchByIds.computeIfAbsent(ids.size(), this::renderFetchByIds);
        Map<Object, Boolean> found = Jdbc.query(c, read, new Binds().values(ids), dialect, rs -> {
            Map<Object, Boolean> rows = new java.util.HashMap<>();
            while (rs.next()) {
                rows.put(readId(rs, 1), binding.processedAt().isPresent() && rs.getObject(2) != null);
            }
            return rows;
        });
        Boolean[] processed = new Boolean[ids.size()];
        for (int i = 0; i < processed.length; i++) {
            processed[i] = found.get(ids.get(i));
        }
        return processed;
    }

    private Statement renderFetchByIds(int count) {
        Field<?> id = binding.id();
        List<Field<?>> columns = new ArrayList<>(List.of(id));
        binding.processedAt().ifPresent(columns::add);
        List<Field<Object>> values = new ArrayList<>(count);
        List<dev.tablequeue.dialect.Param> params = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            values.add(typed(bind(id)));
            params.add(dev.tablequeue.dialect.Param.at(dev.tablequeue.dialect.Param.Kind.VALUE, id, i));
        }
        String sql = render.render(render.select(columns).from(binding.table()).where(typed(id).in(values)));
        return new Statement("fetch of " + count + " records", sql, params);
    }

    /** Marks the record processed (or deletes it); false where it was processed already. */
    boolean ack(Connection c, Object id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(ack)) {
            ps.setObject(1, id);
            return ps.executeUpdate() == 1;
        }
    }

    /** Deletes the records processed before {@code before}; how many. */
    int sweep(Connection c, Instant before) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sweep)) {
            ps.setObject(1, dialect.timeValue(binding.processedAt().orElseThrow(), before));
            return ps.executeUpdate();
        }
    }

    /** Up to {@code limit} unprocessed records of {@code names} after {@code after} (null: from the first), in id order. */
    List<PendingRecord> page(Connection c, Set<String> names, Object after, int limit) throws SQLException {
        String[] statements = pages.computeIfAbsent(Set.copyOf(names), this::renderPages);
        try (PreparedStatement ps = c.prepareStatement(after == null ? statements[0] : statements[1])) {
            int i = 1;
            for (String name : names) {
                ps.setString(i++, name);
            }
            if (after != null) {
                ps.setObject(i++, after);
            }
            ps.setInt(i, limit);
            try (ResultSet rs = ps.executeQuery()) {
                List<PendingRecord> records = new ArrayList<>();
                while (rs.next()) {
                    records.add(read(rs, null));
                }
                return records;
            }
        }
    }

    private String[] renderPages(Set<String> names) {
        List<Field<?>> columns = new ArrayList<>(List.of(binding.id(), binding.name(), binding.payload()));
        binding.headers().ifPresent(columns::add);
        List<Field<String>> params = names.stream().map(n -> bind(binding.name())).toList();
        Condition unprocessed = binding.processedAt().<Condition>map(Field::isNull).orElse(DSL.noCondition());
        Condition ofNames = binding.name().in(params).and(unprocessed);
        Field<Object> id = typed(binding.id());
        String first = render.render(render.select(columns).from(binding.table()).where(ofNames)
                .orderBy(id).limit(DSL.val(0)));
        String next = render.render(render.select(columns).from(binding.table()).where(ofNames.and(id.gt(bind(id))))
                .orderBy(id).limit(DSL.val(0)));
        return new String[] {first, next};
    }

    /**
     * Claims up to {@code limit} unprocessed records of {@code name} whose lease ran out, leasing them until
     * {@code until}: tablequeue's lease claim on the record table, so that no other instance claims them
     * before then.
     */
    List<PendingRecord> claim(Connection c, String name, Instant now, Instant until, int limit) throws SQLException {
        return claims.claimLeased(c, name, now, until, limit, new ClaimedRecords(name));
    }

    /** The records a claim of {@code name} takes; the record table has no fetch or claim of the service's own. */
    private final class ClaimedRecords implements ClaimedRows<PendingRecord> {
        private final String name;

        ClaimedRecords(String name) {
            this.name = name;
        }

        @Override
        public PendingRecord read(ResultSet rs) throws SQLException {
            return RecordStatements.this.read(rs, name);
        }

        @Override
        public Object id(PendingRecord record) {
            return record.id();
        }

        @Override
        public PendingRecord fromRecord(org.jooq.Record record, boolean stamped) {
            throw new IllegalStateException("the record table \"" + binding.tableName() + "\" has no fetch of its own");
        }

        @Override
        public PendingRecord unfetched(Object id, String failure) {
            throw new IllegalStateException(failure);
        }
    }

    /** The record at {@code rs}; its name is {@code name}, or where null the name column's. */
    private PendingRecord read(ResultSet rs, String name) throws SQLException {
        Object id = readId(rs, rs.findColumn(binding.id().getName()));
        name = name != null ? name : rs.getString(binding.name().getName());
        int payloadColumn = rs.findColumn(binding.payload().getName());
        byte[] payload = bytesPayload ? rs.getBytes(payloadColumn) : utf8(rs.getString(payloadColumn));
        Map<String, String> headers = binding.headers().isPresent()
                ? readHeaders(rs.getString(binding.headers().get().getName()), id)
                : Map.of();
        return new PendingRecord(id, name, payload == null ? new byte[0] : payload, headers);
    }

    /** The id in the Java type of the binding's id column. */
    private Object readId(ResultSet rs, int column) throws SQLException {
        Class<?> type = binding.id().getType();
        if (type == Long.class) {
            return rs.getLong(column);
        }
        if (type == Integer.class) {
            return rs.getInt(column);
        }
        if (type == UUID.class) {
            Object value = rs.getObject(column);
            return value instanceof UUID u ? u : UUID.fromString(String.valueOf(value));
        }
        return rs.getString(column);
    }

    /** The id a header names, in the type of the id column; null where the text is not such an id. */
    Object parseId(String text) {
        Class<?> type = binding.id().getType();
        try {
            if (type == Long.class) {
                return Long.valueOf(text);
            }
            if (type == Integer.class) {
                return Integer.valueOf(text);
            }
            if (type == UUID.class) {
                return UUID.fromString(text);
            }
            return text.isEmpty() ? null : text;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private Object payloadValue(byte[] payload) {
        return bytesPayload ? payload : new String(payload, StandardCharsets.UTF_8);
    }

    private static byte[] utf8(String text) {
        return text == null ? null : text.getBytes(StandardCharsets.UTF_8);
    }

    static String writeHeaders(Map<String, String> headers) {
        if (headers.isEmpty()) {
            return "{}";
        }
        try {
            return JSON.writeValueAsString(headers);
        } catch (Exception e) {
            throw new IllegalStateException("headers do not encode as JSON", e);
        }
    }

    private Map<String, String> readHeaders(String json, Object id) throws SQLException {
        if (json == null || json.isBlank()) {
            return Map.of();
        }
        try {
            return JSON.readValue(json, HEADER_MAP);
        } catch (Exception e) {
            throw new SQLException("the headers of record " + id + " in \"" + binding.tableName()
                    + "\" are not a JSON object of strings: " + e.getMessage(), e);
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> Field<T> typed(Field<?> f) {
        return (Field<T>) f;
    }

    private static <T> Field<T> bind(Field<T> column) {
        return DSL.val(null, column);
    }
}
