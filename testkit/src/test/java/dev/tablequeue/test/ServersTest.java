package dev.tablequeue.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ServersTest {

    @Test
    void the_variable_is_taken_before_the_property_and_neither_asks_docker() {
        AtomicInteger asked = new AtomicInteger();
        Servers.Server s = Servers.find(Engine.MYSQL, "mysql:8.4",
                Map.of("TABLEQUEUE_MYSQL_URL", " jdbc:mysql://db:3306/?user=root ")::get,
                Map.of("tablequeue.mysql.url", "jdbc:mysql://other:3306/")::get, () -> asked.incrementAndGet() > 0);

        assertThat(s.adminUrl()).isEqualTo("jdbc:mysql://db:3306/?user=root");
        assertThat(s.origin()).isEqualTo("TABLEQUEUE_MYSQL_URL");
        assertThat(asked).hasValue(0);
    }

    @Test
    void the_property_is_taken_where_the_variable_is_blank() {
        Servers.Server s = Servers.find(Engine.POSTGRES, "postgres:15-alpine", Map.of("TABLEQUEUE_POSTGRES_URL", " ")::get,
                Map.of("tablequeue.postgres.url", "jdbc:postgresql://h/postgres")::get, () -> false);

        assertThat(s.adminUrl()).isEqualTo("jdbc:postgresql://h/postgres");
        assertThat(s.origin()).isEqualTo("system property tablequeue.postgres.url");
    }

    @Test
    void without_a_url_or_a_docker_engine_the_error_names_the_variable_and_the_image() {
        assertThatThrownBy(() -> Servers.find(Engine.MARIADB, "mariadb:10.11", k -> null, k -> null, () -> false))
                .isInstanceOf(Servers.NoServer.class)
                .hasMessage("no MARIADB server: neither TABLEQUEUE_MARIADB_URL nor tablequeue.mariadb.url is set and no"
                        + " Docker engine answers, so Testcontainers cannot start mariadb:10.11");
    }

    @Test
    void a_server_url_gets_the_database_in_place_of_its_own_and_keeps_its_options() {
        assertThat(FreshDatabase.withDatabase("jdbc:mariadb://127.0.0.1:3306/?user=root", "x"))
                .isEqualTo("jdbc:mariadb://127.0.0.1:3306/x?user=root");
        assertThat(FreshDatabase.withDatabase("jdbc:postgresql://h:5432/postgres", "x"))
                .isEqualTo("jdbc:postgresql://h:5432/x");
        assertThat(FreshDatabase.withDatabase("jdbc:mysql://h", "x")).isEqualTo("jdbc:mysql://h/x");
        assertThatThrownBy(() -> FreshDatabase.withDatabase("jdbc:sqlite:file.db?password=s3cret", "x"))
                .hasMessage("not a JDBC URL of a server (jdbc:<driver>://host[:port]/..): jdbc:sqlite:file.db"
                        + "?password=***");
    }
}
