package dev.tablequeue.examples;

import static dev.tablequeue.examples.jooq.Tables.OUTBOX;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tablequeue.examples.codegen.Codegen;
import dev.tablequeue.examples.jooq.DefaultSchema;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.FreshDatabase;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.Temporal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.JSONB;
import org.jooq.Record;
import org.jooq.SQLDialect;
import org.jooq.Schema;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The example migrations on a fresh database, read and written through the one set of jOOQ classes that
 * serves every database: a server's migrations make the tables, columns and nullability the classes declare
 * (which are generated from SQLite's), and a time and a JSON value make the round trip through the classes'
 * bindings. Each database runs
 * this suite through a small subclass; the tests are final, so no subclass drops one.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class MigrationsContract {

    /** The database under test. */
    protected abstract Engine engine();

    /** The generator's view of the same database: where its migrations are, which package its classes are in. */
    protected abstract Codegen.Flavour flavour();

    /** The jOOQ dialect of the database. */
    protected abstract SQLDialect dialect();

    /** The one generated schema. */
    private static Schema schema() {
        return DefaultSchema.DEFAULT_SCHEMA;
    }

    /** A statement that moves the session's time zone away from UTC, or null where the database has none. */
    protected abstract String offsetSessionTimeZone();

    protected FreshDatabase db;
    private int appliedFirst;

    @BeforeAll
    void migrate() {
        db = FreshDatabase.create(engine(), getClass().getSimpleName());
        appliedFirst = Codegen.migrate(db.url(), flavour().classpathLocation());
    }

    @AfterAll
    void drop() {
        if (db != null) {
            db.close();
        }
    }

    @Test
    final void the_migrations_apply_to_a_fresh_database_and_a_second_run_has_nothing_to_do() {
        assertThat(appliedFirst).isPositive();
        assertThat(Codegen.migrate(db.url(), flavour().classpathLocation())).isZero();
    }

    @Test
    final void every_generated_table_reads_in_the_migrated_database() throws SQLException {
        assertThat(schema().getTables()).hasSize(17);
        try (Connection c = db.connect()) {
            DSLContext ctx = DSL.using(c, dialect());
            for (Table<?> table : schema().getTables()) {
                // Names every generated column: a column the database lacks fails the select.
                assertThat(ctx.selectFrom(table).limit(0).fetch()).as(table.getName()).isEmpty();
            }
        }
    }

    @Test
    final void a_row_written_with_its_name_and_payload_takes_the_rest_from_the_database() throws SQLException {
        Table<?> emails = schema().getTable("email_jobs");
        try (Connection c = db.connect()) {
            DSLContext ctx = DSL.using(c, dialect());
            if (offsetSessionTimeZone() != null) {
                ctx.execute(offsetSessionTimeZone());
            }
            Instant before = Instant.now();
            Long id = ctx.insertInto(emails)
                    .set(emails.field("name", String.class), "emails")
                    .set(emails.field("payload", byte[].class), new byte[] {1, 2})
                    .returningResult(emails.field("job_id", Long.class))
                    .fetchOne()
                    .value1();
            Instant after = Instant.now();
            Record stored = ctx.selectFrom(emails).where(emails.field("job_id", Long.class).eq(id)).fetchOne();

            assertThat(stored.get("attempt", Short.class)).isEqualTo((short) 1);
            assertThat(stored.get("processed_at")).isNull();
            // The default "now" is UTC on every database, whatever the session's time zone.
            assertThat(instant(stored.get("retry_after")))
                    .isBetween(before.minus(Duration.ofSeconds(5)), after.plus(Duration.ofSeconds(5)));
        }
    }

    @Test
    final void a_server_has_every_table_of_the_classes_with_their_columns_in_order_and_their_nullability()
            throws SQLException {
        assumeTrue(engine() != Engine.SQLITE, "the classes are generated from SQLite's migrations");
        try (Connection c = db.connect()) {
            DatabaseMetaData meta = c.getMetaData();
            for (Table<?> declared : schema().getTables()) {
                List<String> columns = new ArrayList<>();
                List<Boolean> nullable = new ArrayList<>();
                try (ResultSet rs = meta.getColumns(c.getCatalog(), c.getSchema(), declared.getName(), "%")) {
                    while (rs.next()) {
                        columns.add(rs.getString("COLUMN_NAME"));
                        nullable.add("YES".equals(rs.getString("IS_NULLABLE")));
                    }
                }
                assertThat(columns).as(declared.getName()).isEqualTo(names(declared.fields()));
                assertThat(nullable).as(declared.getName() + ": nullable, column by column")
                        .isEqualTo(Arrays.stream(declared.fields()).map(f -> f.getDataType().nullable()).toList());
            }
        }
    }

    @Test
    final void a_time_and_a_json_value_written_through_the_classes_read_back_and_compare_equal() throws SQLException {
        OffsetDateTime at = OffsetDateTime.of(2026, 11, 30, 4, 0, 0, 123_000_000, ZoneOffset.ofHours(2));
        try (Connection c = db.connect()) {
            DSLContext ctx = DSL.using(c, dialect());
            if (offsetSessionTimeZone() != null) {
                ctx.execute(offsetSessionTimeZone());
            }
            Long id = ctx.insertInto(OUTBOX, OUTBOX.NAME, OUTBOX.PAYLOAD, OUTBOX.HEADERS, OUTBOX.PROCESSED_AT)
                    .values("orders", new byte[] {1}, JSONB.valueOf("{\"trace\":\"abc\"}"), at)
                    .returningResult(OUTBOX.ID)
                    .fetchOne()
                    .value1();
            Record stored = ctx.selectFrom(OUTBOX).where(OUTBOX.PROCESSED_AT.eq(at)).fetchOne();

            assertThat(stored).as("the row found by its time").isNotNull();
            assertThat(stored.get(OUTBOX.ID)).isEqualTo(id);
            assertThat(stored.get(OUTBOX.PROCESSED_AT)).isEqualTo(at.withOffsetSameInstant(ZoneOffset.UTC));
            assertThat(stored.get(OUTBOX.HEADERS).data().replace(" ", "")).isEqualTo("{\"trace\":\"abc\"}");
            assertThat(ctx.fetchCount(OUTBOX, OUTBOX.PROCESSED_AT.lt(at.plusNanos(1_000_000)))).isEqualTo(1);
            assertThat(ctx.fetchCount(OUTBOX, OUTBOX.PROCESSED_AT.lt(at))).isZero();
        }
    }

    private static List<String> names(Field<?>[] fields) {
        return Arrays.stream(fields).map(Field::getName).toList();
    }

    /** A time column's value as an instant: a LocalDateTime column holds UTC. */
    protected static Instant instant(Object time) {
        return switch ((Temporal) time) {
            case OffsetDateTime t -> t.toInstant();
            case LocalDateTime t -> t.toInstant(ZoneOffset.UTC);
            case Instant t -> t;
            default -> throw new AssertionError("not a time of a queue table: " + time.getClass());
        };
    }
}
