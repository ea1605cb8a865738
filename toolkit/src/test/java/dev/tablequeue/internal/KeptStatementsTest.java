package dev.tablequeue.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeptStatementsTest {
    @TempDir
    Path dir;
    private HikariDataSource pool;

    @BeforeEach
    void openPool() {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl("jdbc:sqlite:" + dir.resolve("kept.db"));
        // one connection: each borrow lends the same driver connection
        config.setMaximumPoolSize(1);
        pool = new HikariDataSource(config);
    }

    @AfterEach
    void closePool() {
        pool.close();
    }

    @Test
    void a_statement_prepared_on_a_pooled_connection_is_used_again_by_the_next_borrow() throws SQLException {
        PreparedStatement first;
        try (Connection c = pool.getConnection()) {
            assertThat(KeptStatements.keepsOn(c)).isTrue();
            first = KeptStatements.take(c, "select 1");
            assertThat(KeptStatements.take(c, "select 1")).isSameAs(first);
        }
        try (Connection c = pool.getConnection()) {
            PreparedStatement again = KeptStatements.take(c, "select 1");
            assertThat(again).isSameAs(first);
            assertThat(again.isClosed()).isFalse();
            assertThat(again.executeQuery().next()).isTrue();
        }
    }

    @Test
    void a_statement_dropped_after_a_failure_is_closed_and_prepared_afresh() throws SQLException {
        try (Connection c = pool.getConnection()) {
            PreparedStatement failed = KeptStatements.take(c, "select 2");
            KeptStatements.drop(c, "select 2", failed);
            assertThat(failed.isClosed()).isTrue();
            PreparedStatement fresh = KeptStatements.take(c, "select 2");
            assertThat(fresh).isNotSameAs(failed);
            assertThat(fresh.isClosed()).isFalse();
        }
    }

    @Test
    void beyond_sixty_four_statements_the_least_recently_used_is_closed() throws SQLException {
        try (Connection c = pool.getConnection()) {
            PreparedStatement oldest = KeptStatements.take(c, "select 0");
            PreparedStatement used = KeptStatements.take(c, "select 1");
            for (int i = 2; i <= 63; i++) {
                KeptStatements.take(c, "select " + i);
            }
            // used again: the oldest is now "select 0"
            assertThat(KeptStatements.take(c, "select 1")).isSameAs(used);
            KeptStatements.take(c, "select 64");
            assertThat(oldest.isClosed()).isTrue();
            assertThat(used.isClosed()).isFalse();
        }
    }

    @Test
    void the_statements_of_a_closed_connection_are_let_go_when_a_new_connection_comes() throws SQLException {
        Connection old;
        try (Connection c = pool.getConnection()) {
            KeptStatements.take(c, "select 1");
            old = c.unwrap(Connection.class);
            // the pool ends the driver's connection once it comes back
            pool.evictConnection(c);
        }
        await().atMost(Duration.ofSeconds(10)).until(old::isClosed);
        assertThat(KeptStatements.keepsFor(old)).isTrue();
        try (Connection c = pool.getConnection()) {
            KeptStatements.take(c, "select 1");
            assertThat(KeptStatements.keepsFor(c.unwrap(Connection.class))).isTrue();
        }
        assertThat(KeptStatements.keepsFor(old)).isFalse();
    }

    @Test
    void a_connection_that_is_not_from_a_hikari_pool_keeps_nothing() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("plain.db"))) {
            assertThat(KeptStatements.keepsOn(c)).isFalse();
        }
    }
}
