package dev.tablequeue.dialect;

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
    private final KeptStatements kept = new KeptStatements(64);

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
            first = kept.take(c, "select 1", null);
            assertThat(kept.take(c, "select 1", null)).isSameAs(first);
        }
        try (Connection c = pool.getConnection()) {
            PreparedStatement again = kept.take(c, "select 1", null);
            assertThat(again).isSameAs(first);
            assertThat(again.isClosed()).isFalse();
            assertThat(again.executeQuery().next()).isTrue();
        }
    }

    @Test
    void a_statement_dropped_after_a_failure_is_closed_and_prepared_afresh() throws SQLException {
        try (Connection c = pool.getConnection()) {
            PreparedStatement failed = kept.take(c, "select 2", null);
            kept.give(c, "select 2", null, failed, true);
            assertThat(failed.isClosed()).isTrue();
            PreparedStatement fresh = kept.take(c, "select 2", null);
            assertThat(fresh).isNotSameAs(failed);
            assertThat(fresh.isClosed()).isFalse();
        }
    }

    @Test
    void beyond_sixty_four_statements_the_least_recently_used_is_closed() throws SQLException {
        try (Connection c = pool.getConnection()) {
            PreparedStatement oldest = kept.take(c, "select 0", null);
            PreparedStatement used = kept.take(c, "select 1", null);
            for (int i = 2; i <= 63; i++) {
                kept.take(c, "select " + i, null);
            }
            // used again: the oldest is now "select 0"
            assertThat(kept.take(c, "select 1", null)).isSameAs(used);
            kept.take(c, "select 64", null);
            assertThat(oldest.isClosed()).isTrue();
            assertThat(used.isClosed()).isFalse();
        }
    }

    @Test
    void the_statements_of_a_closed_connection_are_let_go_when_a_new_connection_comes() throws SQLException {
        Connection old;
        try (Connection c = pool.getConnection()) {
            kept.take(c, "select 1", null);
            old = c.unwrap(Connection.class);
            // the pool ends the driver's connection once it comes back
            pool.evictConnection(c);
        }
        await().atMost(Duration.ofSeconds(10)).until(old::isClosed);
        assertThat(kept.keepsFor(old)).isTrue();
        try (Connection c = pool.getConnection()) {
            kept.take(c, "select 1", null);
            assertThat(kept.keepsFor(c.unwrap(Connection.class))).isTrue();
        }
        assertThat(kept.keepsFor(old)).isFalse();
    }

    @Test
    void a_statement_given_back_after_a_use_that_did_not_fail_stays_open_for_the_next() throws SQLException {
        try (Connection c = pool.getConnection()) {
            PreparedStatement ps = kept.take(c, "select 3", null);
            kept.give(c, "select 3", null, ps, false);
            assertThat(ps.isClosed()).isFalse();
            assertThat(kept.take(c, "select 3", null)).isSameAs(ps);
        }
    }

    @Test
    void a_connection_straight_from_the_driver_keeps_its_statements_until_it_closes() throws SQLException {
        Connection plain = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("plain.db"));
        PreparedStatement ps = kept.take(plain, "select 1", null);
        assertThat(kept.take(plain, "select 1", null)).isSameAs(ps);
        assertThat(kept.keepsFor(plain)).isTrue();
        plain.close();
        // the next connection the cache sees lets the closed one's statements go
        try (Connection c = pool.getConnection()) {
            kept.take(c, "select 1", null);
        }
        assertThat(kept.keepsFor(plain)).isFalse();
    }

    @Test
    void the_each_use_cache_closes_each_statement_it_is_given_back() throws SQLException {
        try (Connection c = pool.getConnection()) {
            PreparedStatement ps = StatementCache.EACH_USE.take(c, "select 1", null);
            StatementCache.EACH_USE.give(c, "select 1", null, ps, false);
            assertThat(ps.isClosed()).isTrue();
            assertThat(StatementCache.EACH_USE.take(c, "select 1", null)).isNotSameAs(ps);
        }
    }
}
