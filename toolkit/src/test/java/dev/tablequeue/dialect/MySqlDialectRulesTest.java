package dev.tablequeue.dialect;

import dev.tablequeue.DialectException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tablequeue.ServerTooOldException;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.Isolation;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.binding.SqliteMode;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.Optional;
import org.jooq.Record;
import org.jooq.SQLDialect;
import org.jooq.impl.SQLDataType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which servers MySqlDialect serves, what it refuses, and how it opens transactions and binds values. */
class MySqlDialectRulesTest {
    private static final MySqlDialect MARIADB = MySqlDialect.forServer("MariaDB", "10.11.19-MariaDB-0+deb12u1");

    private final QueueTable<LocalDateTime> t = new QueueTable<>("jobs", SQLDataType.LOCALDATETIME(6));

    // ---------------------------------------------------------------- servers

    @ParameterizedTest(name = "{0} {1} is served as {2}")
    @CsvSource(delimiter = '|', value = {
        "MariaDB | 10.11.19-MariaDB-0+deb12u1       | mariadb | MARIADB",
        "MariaDB | 10.6.0-MariaDB                   | mariadb | MARIADB",
        "MariaDB | 11.4.2-MariaDB-ubu2404           | mariadb | MARIADB",
        "MySQL   | 5.5.5-10.11.19-MariaDB-0+deb12u1 | mariadb | MARIADB",
        "MySQL   | 11.8.1-MariaDB                   | mariadb | MARIADB",
        "MySQL   | 8.0.36                           | mysql   | MYSQL",
        "MySQL   | 8.0.1-dmr-log                    | mysql   | MYSQL",
        "MySQL   | 8.0.35-27                        | mysql   | MYSQL",
        "MySQL   | 8.4.3-0ubuntu0.24.04.1           | mysql   | MYSQL",
        "MySQL   | 9.1.0                            | mysql   | MYSQL",
    })
    void a_server_at_or_past_its_floor_is_served(String product, String version, String name, SQLDialect dialect) {
        MySqlDialect d = MySqlDialect.forServer(product, version);
        assertThat(d.name()).isEqualTo(name);
        assertThat(d.sqlDialect()).isEqualTo(dialect);
    }

    @ParameterizedTest(name = "{0} {1} is refused")
    @CsvSource(delimiter = '|', value = {
        "MariaDB | 10.5.23-MariaDB                 | MariaDB | 10.6.0",
        "MySQL   | 5.5.5-10.5.23-MariaDB-1:10.5.23 | MariaDB | 10.6.0",
        "MariaDB | 5.5.68-MariaDB                  | MariaDB | 10.6.0",
        "MySQL   | 8.0.0-dmr                       | MySQL   | 8.0.1",
        "MySQL   | 5.7.44-log                      | MySQL   | 8.0.1",
        "MySQL   | 5.5.5                           | MySQL   | 8.0.1",
    })
    void a_server_older_than_its_floor_is_refused(String product, String version, String server, String floor) {
        assertThatThrownBy(() -> MySqlDialect.forServer(product, version))
                .isInstanceOfSatisfying(ServerTooOldException.class, e -> {
                    assertThat(e.server()).isEqualTo(server);
                    assertThat(e.version()).isEqualTo(version);
                    assertThat(e.floor()).isEqualTo(floor);
                    assertThat(e).hasMessageContaining(server + " " + version).hasMessageContaining(floor);
                });
    }

    @Test
    void another_database_or_a_version_without_numbers_is_an_illegal_argument() {
        assertThatThrownBy(() -> MySqlDialect.forServer("PostgreSQL", "16.2"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PostgreSQL");
        assertThatThrownBy(() -> MySqlDialect.forServer("MySQL", "unknown"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown");
    }

    // ---------------------------------------------------------------- refusals

    @Test
    void every_isolation_level_is_opened_and_a_sqlite_mode_is_refused() {
        for (Isolation level : Isolation.values()) {
            MARIADB.validate(binding().isolation(level).build());
        }
        RoleBinding<Record> sqlite = binding().sqliteMode(SqliteMode.IMMEDIATE).build();
        assertThatThrownBy(() -> MARIADB.validate(sqlite))
                .isInstanceOf(DialectException.class)
                .hasMessageContaining("\"jobs\"")
                .hasMessageContaining("IMMEDIATE");
        assertThatThrownBy(() -> MARIADB.transactionOpening(sqlite)).isInstanceOf(DialectException.class);
    }

    @Test
    void a_fifo_row_lock_table_at_serializable_is_refused_and_a_fifo_lease_table_is_not() {
        RoleBinding<Record> rowLock = RoleBinding.of(t, t.ID).fifoGroup(t.GRP).payload(t.PAYLOAD)
                .isolation(Isolation.SERIALIZABLE).build();
        assertThatThrownBy(() -> MARIADB.validate(rowLock))
                .isInstanceOf(DialectException.class)
                .hasMessageContaining("\"jobs\"")
                .hasMessageContaining("SERIALIZABLE")
                .hasMessageContaining("locks every row");
        MARIADB.validate(RoleBinding.of(t, t.ID).fifoGroup(t.GRP).payload(t.PAYLOAD)
                .isolation(Isolation.REPEATABLE_READ).build());
        MARIADB.validate(RoleBinding.of(t, t.ID).fifoGroup(t.GRP).payload(t.PAYLOAD).lease(t.LOCKED_UNTIL)
                .isolation(Isolation.SERIALIZABLE).build());
        MARIADB.validate(RoleBinding.of(t, t.ID).group(t.GRP).payload(t.PAYLOAD)
                .isolation(Isolation.SERIALIZABLE).build());
    }

    @Test
    void a_name_over_64_characters_is_refused() {
        String sixtyFour = "t".repeat(64);
        QueueTable<LocalDateTime> fits = new QueueTable<>(sixtyFour, SQLDataType.LOCALDATETIME(6));
        MARIADB.validate(RoleBinding.of(fits, fits.ID).payload(fits.PAYLOAD).build());
        QueueTable<LocalDateTime> over = new QueueTable<>(sixtyFour + "t", SQLDataType.LOCALDATETIME(6));
        assertThatThrownBy(() -> MARIADB.validate(RoleBinding.of(over, over.ID).payload(over.PAYLOAD).build()))
                .isInstanceOf(DialectException.class)
                .hasMessageContaining("65 characters")
                .hasMessageContaining("64");
    }

    @Test
    void every_form_is_served_without_notifications() throws Exception {
        for (Form form : Form.values()) {
            assertThat(MARIADB.supportsForm(form)).isTrue();
        }
        assertThat(MARIADB.claimLeaseStamps()).isFalse();
        assertThat(MARIADB.notifications().refuseListener()).hasValueSatisfying(reason -> assertThat(reason)
                .isEqualTo("listenNotify() needs a database with notifications (PostgreSQL); mariadb has none"));
        assertThat(MARIADB.notifications().statements("emails")).isEmpty();
        assertThatThrownBy(() -> MARIADB.notifications().notify(null, "emails", ""))
                .isInstanceOf(DialectException.class).hasMessageContaining("sends no notifications");
        // the session keeps advisory keys: no process registry, and no connection is asked for one
        assertThat(MARIADB.processKeys(null)).isEmpty();
        assertThat(MARIADB.claimsInParallel()).isTrue();
    }

    // ---------------------------------------------------------------- openings and values

    @Test
    void a_transaction_opens_at_its_declared_level_or_read_committed() {
        assertThat(MARIADB.transactionOpening(binding().build())).isEqualTo(new TransactionOpening(false,
                Optional.of("SET TRANSACTION ISOLATION LEVEL READ COMMITTED")));
        for (Isolation level : Isolation.values()) {
            assertThat(MARIADB.transactionOpening(binding().isolation(level).build())).isEqualTo(
                    new TransactionOpening(false, Optional.of("SET TRANSACTION ISOLATION LEVEL " + level.sql())));
        }
    }

    @Test
    void times_bind_as_utc_local_date_times_in_microseconds_whatever_the_field_type() {
        Instant at = Instant.parse("2026-07-01T10:15:30.123456789Z");
        LocalDateTime utc = LocalDateTime.parse("2026-07-01T10:15:30.123456");
        assertThat(MARIADB.timeValue(t.LOCKED_UNTIL, at)).isEqualTo(utc);
        QueueTable<OffsetDateTime> offset = new QueueTable<>("jobs", SQLDataType.TIMESTAMPWITHTIMEZONE(6));
        assertThat(MARIADB.timeValue(offset.LOCKED_UNTIL, at)).isEqualTo(utc);
        assertThat(MARIADB.timeValue(null, at)).isEqualTo(utc);
    }

    @Test
    void a_delay_binds_as_whole_microseconds() {
        assertThat(MARIADB.delayValue(Duration.ofMillis(1500).plusNanos(2_999))).isEqualTo(1_500_002L);
        assertThat(MARIADB.delayValue(Duration.ofDays(3650))).isEqualTo(3650L * 86_400 * 1_000_000);
    }

    private RoleBinding.Builder<Record> binding() {
        return RoleBinding.of(t, t.ID).group(t.GRP).payload(t.PAYLOAD);
    }
}
