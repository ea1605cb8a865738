package dev.tablequeue.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tablequeue.test.Engine;
import dev.tablequeue.test.FreshDatabase;
import dev.tablequeue.internal.SqliteKeyRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The registry that keeps SQLite's advisory keys in the process. */
class SqliteKeyRegistryIT {
    private final SqliteKeyRegistry registry = new SqliteKeyRegistry();

    @Test
    void a_key_in_work_is_passed_over_until_its_hold_is_released() {
        Optional<SqliteKeyRegistry.Hold> hold = registry.tryTake("/db/a.db", "jobs-1");
        assertThat(hold).isPresent();
        assertThat(registry.isHeld("/db/a.db", "jobs-1")).isTrue();
        assertThat(registry.tryTake("/db/a.db", "jobs-1")).isEmpty();
        assertThat(registry.tryTake("/db/a.db", "jobs-2")).isPresent();
        assertThat(registry.heldKeys("/db/a.db")).containsExactly("jobs-1", "jobs-2");

        assertThat(hold.get().release()).isTrue();
        assertThat(registry.isHeld("/db/a.db", "jobs-1")).isFalse();
        assertThat(registry.tryTake("/db/a.db", "jobs-1")).isPresent();
    }

    @Test
    void a_holders_view_sees_the_keys_every_holder_of_its_file_took() {
        ProcessKeys mine = registry.keysOf("/db/a.db");
        ProcessKeys theirs = registry.keysOf("/db/a.db");
        ProcessKeys elsewhere = registry.keysOf("/db/b.db");
        assertThat(theirs.tryTake("jobs-1")).isTrue();
        assertThat(elsewhere.tryTake("jobs-2")).isTrue();

        assertThat(mine.isHeld("jobs-1")).isTrue();
        assertThat(mine.isHeld("jobs-2")).isFalse();
        assertThat(mine.held()).isEqualTo(1);
        assertThat(mine.tryTake("jobs-1")).isFalse();
        assertThat(mine.release("jobs-1")).as("a key another holder took").isFalse();
        assertThat(theirs.release("jobs-1")).isTrue();
        assertThat(mine.isHeld("jobs-1")).isFalse();
    }

    @Test
    void the_keys_of_two_database_files_are_kept_apart() {
        assertThat(registry.tryTake("/db/a.db", "jobs-1")).isPresent();
        assertThat(registry.tryTake("/db/b.db", "jobs-1")).isPresent();
        assertThat(registry.heldKeys("/db/a.db")).containsExactly("jobs-1");
        assertThat(registry.heldKeys("/db/c.db")).isEmpty();
    }

    @Test
    void a_second_release_does_nothing_even_after_another_holder_took_the_key() {
        SqliteKeyRegistry.Hold first = registry.tryTake("/db/a.db", "jobs-1").orElseThrow();
        assertThat(first.release()).isTrue();
        SqliteKeyRegistry.Hold second = registry.tryTake("/db/a.db", "jobs-1").orElseThrow();
        assertThat(first.release()).isFalse();
        first.close();
        assertThat(registry.isHeld("/db/a.db", "jobs-1")).isTrue();
        second.close();
        assertThat(registry.isHeld("/db/a.db", "jobs-1")).isFalse();
        assertThat(second.release()).isFalse();
    }

    @Test
    void of_threads_racing_for_one_key_exactly_one_takes_it() throws Exception {
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 200; round++) {
                String key = "jobs-" + round;
                CountDownLatch start = new CountDownLatch(1);
                List<Future<Optional<SqliteKeyRegistry.Hold>>> takes = new ArrayList<>();
                for (int i = 0; i < threads; i++) {
                    takes.add(pool.submit(() -> {
                        start.await();
                        return registry.tryTake("/db/a.db", key);
                    }));
                }
                start.countDown();
                int taken = 0;
                for (Future<Optional<SqliteKeyRegistry.Hold>> f : takes) {
                    taken += f.get(10, TimeUnit.SECONDS).isPresent() ? 1 : 0;
                }
                assertThat(taken).as(key).isOne();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void two_urls_of_one_file_name_one_database_and_two_files_two() throws Exception {
        try (FreshDatabase a = FreshDatabase.create(Engine.SQLITE, "registry_a");
                FreshDatabase b = FreshDatabase.create(Engine.SQLITE, "registry_b")) {
            a.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)");
            b.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)");
            Path file = Path.of(a.url().substring("jdbc:sqlite:".length()));
            Path link = file.resolveSibling("link.db");
            Files.createSymbolicLink(link, file);
            try (Connection direct = a.connect();
                    Connection throughLink = DriverManager.getConnection("jdbc:sqlite:" + link);
                    Connection other = b.connect()) {
                String name = SqliteKeyRegistry.databaseOf(direct);
                assertThat(name).isEqualTo(file.toRealPath().toString());
                assertThat(SqliteKeyRegistry.databaseOf(throughLink)).isEqualTo(name);
                assertThat(SqliteKeyRegistry.databaseOf(other)).isNotEqualTo(name);
            } finally {
                Files.deleteIfExists(link);
            }
        }
    }

    @Test
    void a_database_without_a_file_has_no_name_to_keep_keys_by() throws Exception {
        try (Connection memory = DriverManager.getConnection("jdbc:sqlite::memory:")) {
            assertThatThrownBy(() -> SqliteKeyRegistry.databaseOf(memory)).isInstanceOf(SQLException.class)
                    .hasMessageContaining("per database file");
        }
    }

    @Test
    void the_process_has_one_registry() {
        assertThat(SqliteKeyRegistry.process()).isSameAs(SqliteKeyRegistry.process());
    }
}
