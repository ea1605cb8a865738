package dev.tablequeue.maven.checker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.tablequeue.maven.Protocol;
import dev.tablequeue.maven.Requests;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A Testcontainers database where no Docker engine can be reached. */
class ContainerDatabaseTest {
    @TempDir
    Path work;

    @Test
    void without_a_docker_engine_a_container_database_fails_the_check_and_asks_for_a_url() throws Exception {
        assumeFalse(ContainerScratch.dockerAvailable(), "a Docker engine is reachable here: the container would start");

        List<String> report = CheckerRun.run(Requests.write(work, null, "postgres:16", "classpath:fixture/sqlite"));

        assertThat(report).contains(Protocol.line(Protocol.ERROR, "database postgresql: no Docker engine can be"
                + " reached, so Testcontainers cannot start the container \"postgres:16\". Give this database a <url>"
                + " instead: an administrative JDBC URL of a postgresql server, on which the check makes a scratch"
                + " database of its own"));
        assertThat(report).endsWith(Protocol.line(Protocol.RESULT, "1 0"));
    }

    @Test
    void a_container_of_an_image_that_is_no_database_is_refused_by_name() throws Exception {
        List<String> report = CheckerRun.run(Requests.write(work, null, "redis:7", "classpath:fixture/sqlite"));

        assertThat(report).anyMatch(l -> l.startsWith(Protocol.line(Protocol.ERROR, "database "))
                && l.contains("the container \"redis:7\" is not a PostgreSQL, MariaDB or MySQL image"));
    }
}
