package dev.tablequeue.test.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.Param;
import dev.tablequeue.dialect.QueueSettlements;
import dev.tablequeue.dialect.QueueSettlements.Kind;
import dev.tablequeue.dialect.QueueSettlements.Outcome;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.test.Engine;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.jooq.DataType;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.junit.jupiter.api.Test;

/**
 * The settlements of many rows in one statement ({@link QueueSettlements#writeAll} of outcomes of one kind):
 * each row's own values (its id, its lease token, its time, its last error) bound as data, for integer, text
 * and 16-byte ids, for a thousand rows at once, and with the JVM's and the session's time zones away from UTC.
 *
 * <p>Part of the dialect contract. A dialect that writes many rows one execution each (its settlements hold
 * no statement that binds rows as data) passes by having nothing to prove.
 */
public abstract class DialectManyRowsContract extends DialectFixture {
    private static final AtomicInteger TABLES = new AtomicInteger();
    private static final HexFormat HEX = HexFormat.of();

    /** A queue table whose id is of {@code idSql} ({@code id} in jOOQ's {@code idType}), with ids the test gives. */
    private record Keyed<I>(Table<Record> table, Field<I> id, Field<Instant> processed, Field<Instant> due,
            Field<Instant> lease, Field<String> lastError, Field<String> group, RoleBinding<Record> binding) {}

    private <I> Keyed<I> table(String idSql, DataType<I> idType) {
        String name = "m" + TABLES.incrementAndGet();
        Engine engine = database().engine();
        boolean my = engine == Engine.MARIADB || engine == Engine.MYSQL;
        String time = switch (engine) {
            case POSTGRES -> "TIMESTAMPTZ";
            case MARIADB, MYSQL -> "DATETIME(6)";
            case SQLITE -> "TEXT";
        };
        db.execute("CREATE TABLE " + name + " (id " + idSql + " PRIMARY KEY, grp " + (my ? "VARCHAR(100)" : "TEXT")
                + ", retry_after " + time + " NULL, attempt INT NOT NULL DEFAULT 1, processed_at " + time + " NULL,"
                + " locked_until " + time + " NULL, last_error TEXT, payload "
                + (engine == Engine.POSTGRES ? "BYTEA" : my ? "LONGBLOB" : "BLOB") + ")");
        @SuppressWarnings("unchecked")
        DataType<Instant> timeType = (DataType<Instant>) (DataType<?>) database().timeType();
        Table<Record> t = DSL.table(DSL.name(name));
        Field<I> id = DSL.field(DSL.name(name, "id"), idType);
        Field<Instant> processed = DSL.field(DSL.name(name, "processed_at"), timeType);
        Field<Instant> due = DSL.field(DSL.name(name, "retry_after"), timeType);
        Field<Instant> lease = DSL.field(DSL.name(name, "locked_until"), timeType);
        Field<String> lastError = DSL.field(DSL.name(name, "last_error"), SQLDataType.CLOB);
        Field<String> group = DSL.field(DSL.name(name, "grp"), SQLDataType.VARCHAR(100));
        RoleBinding<Record> b = RoleBinding.of(t, id)
                .group(group)
                .retryAfter(due)
                .attempt(DSL.field(DSL.name(name, "attempt"), SQLDataType.INTEGER))
                .processedAt(processed)
                .lease(lease)
                .lastError(lastError)
                .payload(DSL.field(DSL.name(name, "payload"), SQLDataType.BLOB))
                .build();
        return new Keyed<>(t, id, processed, due, lease, lastError, group, b);
    }

    /** The token the {@code i}-th row's lease holds: each row its own, a millisecond apart. */
    private Instant token(int i) {
        return now.plusSeconds(30).plusMillis(i);
    }

    private void insert(Keyed<?> k, List<?> ids) throws SQLException {
        try (Connection c = db.connect(); PreparedStatement ps = c.prepareStatement("INSERT INTO "
                + k.table().getName() + " (id, grp, retry_after, locked_until) VALUES (?, 'a', ?, ?)")) {
            for (int i = 0; i < ids.size(); i++) {
                ps.setObject(1, ids.get(i));
                ps.setObject(2, dialect.timeValue(k.due(), now.minusSeconds(60)));
                ps.setObject(3, dialect.timeValue(k.lease(), token(i)));
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** A row as stored: its times read as the dialect reads them, its last error and group. */
    private record Stored(Instant processed, Instant due, Instant lease, String lastError, String group) {}

    private Map<String, Stored> stored(Keyed<?> k) throws SQLException {
        Map<String, Stored> rows = new HashMap<>();
        try (Connection c = db.connect(); PreparedStatement ps = c.prepareStatement("SELECT id, processed_at,"
                + " retry_after, locked_until, last_error, grp FROM " + k.table().getName());
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                rows.put(key(rs.getObject(1)), new Stored(dialect.readTime(rs, 2, k.processed()),
                        dialect.readTime(rs, 3, k.due()), dialect.readTime(rs, 4, k.lease()), rs.getString(5),
                        rs.getString(6)));
            }
        }
        return rows;
    }

    private static String key(Object id) {
        return id instanceof byte[] bytes ? HEX.formatHex(bytes) : id.toString();
    }

    /** Whether the dialect writes an outcome to many rows in one statement: one of its settlements binds rows. */
    private boolean bindsRows(RoleBinding<?> b) {
        return dialect.settlements(b, true, null).statements().stream()
                .anyMatch(s -> s.params().stream().anyMatch(p -> p.kind() == Param.Kind.ROWS));
    }

    /** {@code kind} of each of {@code binds}, in order. */
    private static List<Outcome> outcomes(Kind kind, List<Binds> binds) {
        return binds.stream().map(b -> new Outcome(kind, b)).toList();
    }

    /**
     * Writes {@code outcomes} with lease tokens, the outcomes of one kind in one statement, on a session whose
     * time zone is away from UTC (in auto-commit: what a statement writes stays); returns the outcomes whose row
     * did not change.
     */
    private Map<Integer, ?> write(RoleBinding<?> b, List<Outcome> outcomes) throws Exception {
        try (Connection c = db.connect()) {
            switch (database().engine()) {
                case POSTGRES -> run(c, "SET TIME ZONE 'America/St_Johns'");
                case MARIADB, MYSQL -> run(c, "SET time_zone = '-03:30'");
                case SQLITE -> { }
            }
            return dialect.settlements(b, true, null).writeAll(c, outcomes, true);
        }
    }

    /**
     * Acknowledges the first half of {@code ids} in one statement (one of them with a stale token, which it
     * must leave), then retries the second half later in one statement, each row at its own time and with its
     * own error, under a JVM time zone 12:45 ahead of UTC; asserts each row.
     */
    private <I> void settlesEachRowByItsOwnValues(Keyed<I> k, List<I> ids) throws Exception {
        if (!bindsRows(k.binding())) {
            return;
        }
        insert(k, ids);
        int half = ids.size() / 2;
        int stale = 3;
        List<Binds> acks = new ArrayList<>();
        for (int i = 0; i < half; i++) {
            acks.add(new Binds().id(ids.get(i)).now(now.plusMillis(i))
                    .leaseHeld(i == stale ? token(i).plusMillis(1) : token(i)));
        }
        TimeZone zone = TimeZone.getDefault();
        TimeZone.setDefault(TimeZone.getTimeZone("Pacific/Chatham"));
        try {
            // one statement over the half: it changes every row but the stale one's, and cannot tell which
            QueueSettlements.Failure shortfall = catchThrowableOfType(QueueSettlements.Failure.class,
                    () -> write(k.binding(), outcomes(Kind.ACK, acks)));
            assertThat(shortfall).as("the acknowledgement of %s rows, one with a stale token", half).isNotNull();
            assertThat(shortfall.shortfall()).isTrue();
            assertThat(shortfall.wrote()).hasSize(half);
            assertThat(shortfall.statement().params()).as("the statement binds its rows as data")
                    .anyMatch(p -> p.kind() == Param.Kind.ROWS);
            List<Binds> retries = new ArrayList<>();
            for (int i = half; i < ids.size(); i++) {
                retries.add(new Binds().id(ids.get(i)).leaseHeld(token(i)).retryAt(at(i))
                        .lastError(i % 2 == 0 ? "failed \"" + i + "\" \\ é" : null));
            }
            assertThat(write(k.binding(), outcomes(Kind.RETRY_AFTER, retries))).as("rows left unchanged").isEmpty();
        } finally {
            TimeZone.setDefault(zone);
        }
        Map<String, Stored> rows = stored(k);
        assertThat(rows).hasSize(ids.size());
        for (int i = 0; i < ids.size(); i++) {
            Stored row = rows.get(key(ids.get(i)));
            if (i == stale) {
                assertThat(row.processed()).as("row %s, whose token was stale", i).isNull();
                assertThat(row.lease()).isEqualTo(token(i));
            } else if (i < half) {
                assertThat(row.processed()).as("row %s", i).isEqualTo(now.plusMillis(i));
            } else {
                assertThat(row.processed()).isNull();
                assertThat(row.due()).as("row %s", i).isEqualTo(at(i));
                assertThat(row.lease()).isNull();
                assertThat(row.lastError()).isEqualTo(i % 2 == 0 ? "failed \"" + i + "\" \\ é" : null);
            }
        }
    }

    /** The {@code i}-th row's own retry time: hours apart, across days and a change of offset in any zone. */
    private Instant at(int i) {
        return now.plus(Duration.ofMinutes(97L * i)).plusMillis(i);
    }

    private static <I> List<I> ids(int count, IntFunction<I> id) {
        List<I> ids = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            ids.add(id.apply(i));
        }
        return ids;
    }

    @Test
    public final void a_thousand_rows_with_integer_ids_are_settled_each_by_its_own_values_in_one_statement()
            throws Exception {
        Keyed<Long> k = table("BIGINT", SQLDataType.BIGINT);
        settlesEachRowByItsOwnValues(k, ids(1000, i -> 1_000_000_007L * (i + 1)));
    }

    @Test
    public final void rows_with_text_ids_are_settled_each_by_its_own_values() throws Exception {
        Keyed<String> k = table(database().engine() == Engine.POSTGRES || database().engine() == Engine.SQLITE
                ? "TEXT" : "VARCHAR(64)", SQLDataType.VARCHAR(64));
        settlesEachRowByItsOwnValues(k, ids(40, i -> "job-" + i + (i % 3 == 0 ? "-é'\"" : "")));
    }

    @Test
    public final void rows_with_16_byte_ids_are_settled_each_by_its_own_values() throws Exception {
        String type = switch (database().engine()) {
            case POSTGRES -> "BYTEA";
            case MARIADB, MYSQL -> "BINARY(16)";
            case SQLITE -> "BLOB";
        };
        Keyed<byte[]> k = table(type, SQLDataType.BINARY(16));
        settlesEachRowByItsOwnValues(k, ids(40, i -> {
            UUID u = UUID.nameUUIDFromBytes(new byte[] {(byte) i});
            return java.nio.ByteBuffer.allocate(16).putLong(u.getMostSignificantBits())
                    .putLong(u.getLeastSignificantBits()).array();
        }));
    }

    @Test
    public final void rows_with_uuid_ids_are_settled_each_by_its_own_values_where_the_database_has_uuids()
            throws Exception {
        if (database().engine() != Engine.POSTGRES) {
            return;
        }
        Keyed<UUID> k = table("UUID", SQLDataType.UUID);
        settlesEachRowByItsOwnValues(k, ids(40, i -> UUID.nameUUIDFromBytes(new byte[] {(byte) i})));
    }

    @Test
    public final void drops_retries_and_dead_letters_of_many_rows_write_each_row_its_own_error() throws Exception {
        Keyed<Long> k = table("BIGINT", SQLDataType.BIGINT);
        if (!bindsRows(k.binding())) {
            return;
        }
        List<Long> ids = ids(9, i -> (long) i + 1);
        insert(k, ids);
        // a third of each kind, in one statement each: every row changes
        List<Kind> kinds = List.of(Kind.DROP, Kind.RETRY, Kind.DEAD_LETTER_TO_GROUP);
        List<Outcome> outcomes = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            outcomes.add(new Outcome(kinds.get(i / 3), new Binds().id(ids.get(i)).now(now).leaseHeld(token(i))
                    .destination("dead").lastError("error " + i)));
        }
        assertThat(write(k.binding(), outcomes)).as("rows left unchanged").isEmpty();
        Map<String, Stored> rows = stored(k);
        for (int i = 0; i < ids.size(); i++) {
            Stored row = rows.get(key(ids.get(i)));
            assertThat(row.lastError()).isEqualTo("error " + i);
            assertThat(row.processed()).isEqualTo(i < 3 ? now : null);
            assertThat(row.lease()).isEqualTo(i < 3 ? token(i) : null);
            assertThat(row.group()).isEqualTo(i < 6 ? "a" : "dead");
        }
    }
}
