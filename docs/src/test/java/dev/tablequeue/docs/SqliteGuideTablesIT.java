package dev.tablequeue.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tablequeue.DialectException;
import dev.tablequeue.dialect.SqliteTime;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.FreshDatabase;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import org.jooq.codegen.GenerationTool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteGuideTablesIT extends GuideTablesContract {
    @Override
    protected GuideDatabase db() {
        return GuideDatabase.SQLITE;
    }

    @Test
    void the_row_lock_form_is_refused_when_the_broker_starts_naming_the_table() {
        assertThatThrownBy(this::startRowLock).isInstanceOf(DialectException.class)
                .hasMessageContaining("email_jobs").hasMessageContaining("row lock");
    }

    @Test
    void the_guides_default_writes_the_time_layout_sqlite_time_reads_and_writes() throws Exception {
        try (FreshDatabase scratch = FreshDatabase.create(Engine.SQLITE, "GuideTimeLayout");
                Connection c = scratch.connect()) {
            scratch.execute(Guide.adopting().statements(db().ddl()).toArray(String[]::new));
            try (var s = c.createStatement()) {
                s.execute("INSERT INTO email_jobs (name) VALUES ('layout')");
                try (ResultSet rs = s.executeQuery("SELECT retry_after FROM email_jobs")) {
                    rs.next();
                    String written = rs.getString(1);
                    assertThat(written).matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}\\+00:00");
                    assertThat(SqliteTime.format(SqliteTime.parse(written).toInstant())).isEqualTo(written);
                }
            }
        }
    }

    @Test
    void the_guides_forced_types_generate_offset_date_time_times_and_long_ids(@TempDir Path target) throws Exception {
        try (FreshDatabase scratch = FreshDatabase.create(Engine.SQLITE, "GuideCodegen")) {
            scratch.execute(Guide.adopting().statements(db().ddl()).toArray(String[]::new));
            String xml = """
                    <configuration xmlns="http://www.jooq.org/xsd/jooq-codegen-3.21.0.xsd">
                      <logging>WARN</logging>
                      <jdbc><url>%s</url></jdbc>
                      <generator>
                        <database>
                          <name>org.jooq.meta.sqlite.SQLiteDatabase</name>
                          <includes>email_jobs</includes>
                          %s
                        </database>
                        <target><packageName>guide</packageName><directory>%s</directory></target>
                      </generator>
                    </configuration>
                    """.formatted(scratch.url(), Guide.adopting().block("codegen-sqlite"), target);
            GenerationTool.generate(GenerationTool.load(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8))));
        }
        String generated = Files.readString(target.resolve("guide/tables/EmailJobs.java"));
        assertThat(generated)
                .contains("TableField<EmailJobsRecord, Long> ID")
                .contains("TableField<EmailJobsRecord, OffsetDateTime> RETRY_AFTER")
                .contains("TableField<EmailJobsRecord, OffsetDateTime> PROCESSED_AT")
                .contains("TableField<EmailJobsRecord, OffsetDateTime> LOCKED_UNTIL")
                .contains("new SqliteTime()");
    }
}
