package dev.tablequeue.examples;

import static dev.tablequeue.examples.jooq.Tables.EMAIL_JOBS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.dialect.SqliteTime;
import dev.tablequeue.examples.codegen.Codegen;
import dev.tablequeue.test.Engine;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/** The example migrations on SQLite, and the one layout of time its text columns keep. */
class SqliteMigrationsIT extends MigrationsContract {

    @Override
    protected Engine engine() {
        return Engine.SQLITE;
    }

    @Override
    protected Codegen.Flavour flavour() {
        return Codegen.Flavour.SQLITE;
    }

    @Override
    protected SQLDialect dialect() {
        return SQLDialect.SQLITE;
    }

    @Override
    protected String offsetSessionTimeZone() {
        return null; // strftime('now') is UTC
    }

    // SQLite compares times as text: a default and a time written through SqliteTime must share one layout.
    @Test
    void a_default_time_and_a_time_written_through_the_generated_classes_share_sqlite_times_layout()
            throws SQLException {
        try (Connection c = db.connect()) {
            DSLContext ctx = DSL.using(c, SQLDialect.SQLITE);
            OffsetDateTime later = OffsetDateTime.of(2026, 11, 30, 4, 0, 0, 123_000_000, ZoneOffset.ofHours(2));
            ctx.insertInto(EMAIL_JOBS, EMAIL_JOBS.NAME).values("defaulted").execute();
            ctx.insertInto(EMAIL_JOBS, EMAIL_JOBS.NAME, EMAIL_JOBS.RETRY_AFTER).values("written", later).execute();

            String layout = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}\\+00:00";
            // The text as stored, read past the converter.
            String defaulted = (String) ctx.fetchValue("SELECT retry_after FROM email_jobs WHERE name = 'defaulted'");
            String written = (String) ctx.fetchValue("SELECT retry_after FROM email_jobs WHERE name = 'written'");
            assertThat(defaulted).matches(layout);
            assertThat(written).isEqualTo("2026-11-30T02:00:00.123+00:00");
            assertThat(ctx.select(EMAIL_JOBS.RETRY_AFTER).from(EMAIL_JOBS).where(EMAIL_JOBS.NAME.eq("written"))
                    .fetchOne(EMAIL_JOBS.RETRY_AFTER)).isEqualTo(later.withOffsetSameInstant(ZoneOffset.UTC));
            assertThat(SqliteTime.parse(defaulted)).isNotNull();
        }
    }
}
