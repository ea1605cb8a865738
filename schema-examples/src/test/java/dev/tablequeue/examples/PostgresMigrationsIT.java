package dev.tablequeue.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.examples.codegen.Codegen;
import dev.tablequeue.test.Engine;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import org.jooq.SQLDialect;
import org.junit.jupiter.api.Test;

/** The example migrations on PostgreSQL. */
class PostgresMigrationsIT extends MigrationsContract {

    @Override
    protected Engine engine() {
        return Engine.POSTGRES;
    }

    @Override
    protected Codegen.Flavour flavour() {
        return Codegen.Flavour.POSTGRES;
    }

    @Override
    protected SQLDialect dialect() {
        return SQLDialect.POSTGRES;
    }

    @Override
    protected String offsetSessionTimeZone() {
        return "SET TIME ZONE 'Asia/Kolkata'";
    }

    @Test
    void every_queue_table_that_keeps_its_processed_rows_is_vacuumed_by_a_fixed_count_of_dead_rows()
            throws SQLException {
        try (Connection c = db.connect();
                PreparedStatement ps = c.prepareStatement("SELECT reloptions FROM pg_class WHERE relname = ?")) {
            for (String table : List.of("email_jobs", "support_tickets", "invoice_jobs", "demo_jobs")) {
                ps.setString(1, table);
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.next()).as(table).isTrue();
                    assertThat(rs.getArray(1)).as(table + " has storage parameters").isNotNull();
                    assertThat(Arrays.asList((String[]) rs.getArray(1).getArray())).as(table).contains(
                            "autovacuum_vacuum_scale_factor=0", "autovacuum_vacuum_threshold=10000",
                            "autovacuum_vacuum_insert_scale_factor=0", "autovacuum_vacuum_insert_threshold=10000",
                            "autovacuum_vacuum_cost_delay=0");
                }
            }
        }
    }
}
