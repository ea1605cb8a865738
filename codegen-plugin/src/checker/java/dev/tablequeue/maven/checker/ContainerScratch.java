package dev.tablequeue.maven.checker;

import java.util.Locale;
import java.util.function.Function;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.JdbcDatabaseContainer;
import org.testcontainers.mariadb.MariaDBContainer;
import org.testcontainers.mysql.MySQLContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A PostgreSQL, MariaDB or MySQL container started by Testcontainers for one check, and stopped after it.
 * It needs a Docker engine; where none can be reached the check says so and asks for a URL instead.
 */
final class ContainerScratch implements Scratch {
    /** The images a container may run, by what their name starts with, each with Testcontainers' class for it. */
    private enum Kind {
        POSTGRESQL("postgres", "postgresql", PostgreSQLContainer::new),
        MARIADB("mariadb", "mariadb", MariaDBContainer::new),
        MYSQL("mysql", "mysql", MySQLContainer::new);

        final String image;
        final String label;
        final Function<DockerImageName, JdbcDatabaseContainer<?>> start;

        Kind(String image, String label, Function<DockerImageName, JdbcDatabaseContainer<?>> start) {
            this.image = image;
            this.label = label;
            this.start = start;
        }

        static Kind of(String image) {
            String repository = DockerImageName.parse(image).getRepository().toLowerCase(Locale.ROOT);
            String last = repository.substring(repository.lastIndexOf('/') + 1);
            for (Kind k : values()) {
                if (last.startsWith(k.image)) {
                    return k;
                }
            }
            throw new IllegalArgumentException("the container \"" + image + "\" is not a PostgreSQL, MariaDB or MySQL"
                    + " image (its name starts with postgres, mariadb or mysql)");
        }
    }

    private final String label;
    private final JdbcDatabaseContainer<?> container;

    private ContainerScratch(String label, JdbcDatabaseContainer<?> container) {
        this.label = label;
        this.container = container;
    }

    /**
     * Starts {@code image}.
     *
     * @throws CheckFailure where no Docker engine can be reached
     */
    static ContainerScratch start(String label, String image) {
        Kind kind = Kind.of(image);
        String name = label == null ? kind.label : label;
        if (!dockerAvailable()) {
            throw new CheckFailure("database " + name + ": no Docker engine can be reached, so Testcontainers cannot"
                    + " start the container \"" + image + "\". Give this database a <url> instead: an administrative"
                    + " JDBC URL of a " + kind.label + " server, on which the check makes a scratch database of its own");
        }
        DockerImageName parsed = DockerImageName.parse(image).asCompatibleSubstituteFor(kind.image);
        JdbcDatabaseContainer<?> container = kind.start.apply(parsed);
        container.start();
        return new ContainerScratch(name, container);
    }

    /** Whether Testcontainers finds a Docker engine (it tries each way it knows, and answers false where none works). */
    static boolean dockerAvailable() {
        return DockerClientFactory.instance().isDockerAvailable();
    }

    @Override
    public String label() {
        return label;
    }

    @Override
    public String url() {
        String url = container.getJdbcUrl();
        return url + (url.contains("?") ? "&" : "?") + "user=" + container.getUsername()
                + "&password=" + container.getPassword();
    }

    @Override
    public void close() {
        container.stop();
    }
}
