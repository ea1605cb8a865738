package dev.tablequeue.test;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.JdbcDatabaseContainer;
import org.testcontainers.mariadb.MariaDBContainer;
import org.testcontainers.mysql.MySQLContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * Finds the server a test class's database goes on: the URL of the engine's environment variable, else its
 * system property, else a Testcontainers container (one per image and JVM, started at first use) where a Docker
 * engine answers.
 */
final class Servers {
    /** A server to make databases on: its administrative JDBC URL, and where it came from, in words. */
    record Server(Engine engine, String adminUrl, String origin) {}

    /** No server could be found; the message says which settings were looked at ({@link MissingServer} adds what to set). */
    static final class NoServer extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NoServer(String message) {
            super(message);
        }
    }

    private static final Map<String, JdbcDatabaseContainer<?>> CONTAINERS = new ConcurrentHashMap<>();

    private Servers() {}

    /** The server for {@code engine}, from this process's environment, its system properties and Docker. */
    static Server find(Engine engine, String image) {
        return find(engine, image, System::getenv, System::getProperty, Servers::dockerAvailable);
    }

    /**
     * The server for {@code engine}: {@code env} and {@code properties} are read for its URL; where neither names
     * one, a container of {@code image} runs where {@code docker} says an engine answers.
     *
     * @throws NoServer where none of them gives a server
     */
    static Server find(Engine engine, String image, Function<String, String> env, Function<String, String> properties,
            BooleanSupplier docker) {
        String set = env.apply(engine.variable());
        if (set != null && !set.isBlank()) {
            return new Server(engine, set.strip(), engine.variable());
        }
        String property = properties.apply(engine.property());
        if (property != null && !property.isBlank()) {
            return new Server(engine, property.strip(), "system property " + engine.property());
        }
        if (!docker.getAsBoolean()) {
            throw new NoServer("no " + engine + " server: neither " + engine.variable() + " nor " + engine.property()
                    + " is set and no Docker engine answers, so Testcontainers cannot start " + image);
        }
        JdbcDatabaseContainer<?> container = CONTAINERS.computeIfAbsent(image, i -> start(engine, i));
        String url = container.getJdbcUrl();
        String admin = url + (url.contains("?") ? "&" : "?") + "user=" + container.getUsername() + "&password="
                + container.getPassword();
        return new Server(engine, admin, "container " + image);
    }

    private static JdbcDatabaseContainer<?> start(Engine engine, String image) {
        JdbcDatabaseContainer<?> c = switch (engine) {
            case POSTGRES -> new PostgreSQLContainer(DockerImageName.parse(image).asCompatibleSubstituteFor("postgres"));
            // root, so the kit may create a database per test class
            case MARIADB -> new MariaDBContainer(DockerImageName.parse(image).asCompatibleSubstituteFor("mariadb"))
                    .withUsername("root");
            case MYSQL -> new MySQLContainer(DockerImageName.parse(image).asCompatibleSubstituteFor("mysql"))
                    .withUsername("root");
            case SQLITE -> throw new IllegalArgumentException("SQLite runs in no container");
        };
        c.start();
        return c;
    }

    private static boolean dockerAvailable() {
        return DockerClientFactory.instance().isDockerAvailable();
    }
}
