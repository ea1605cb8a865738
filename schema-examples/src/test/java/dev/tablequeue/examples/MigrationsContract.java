package dev.tablequeue.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.examples.codegen.Codegen;
import dev.tablequeue.testkit.LiveDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.Temporal;
import org.jooq.DSLContext;
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
 * The example migrations on a fresh database, read through the jOOQ classes generated for that database.
 * Each database runs this suite through a small subclass; the tests are final, so no subclass drops one.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class MigrationsContract {

    /** The database under test. */
    protected abstract LiveDatabase.Engine engine();

    /** The generator's view of the same database: where its migrations are, which package its classes are in. */
    protected abstract Codegen.Flavour flavour();

    /** The jOOQ dialect of the database. */
    protected abstract SQLDialect dialect();

    /** The generated schema of the database ({@code DefaultSchema.DEFAULT_SCHEMA}). */
    protected abstract Schema schema();

    /** A statement that moves the session's time zone away from UTC, or null where the database has none. */
    protected abstract String offsetSessionTimeZone();

    protected LiveDatabase db;
    private int appliedFirst;

    @BeforeAll
    void migrate() {
        db = LiveDatabase.create(engine(), getClass().getSimpleName());
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
        assertThat(schema().getTables()).hasSize(16);
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
