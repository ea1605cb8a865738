package dev.tablequeue.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.test.Engine;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A transactional handler inside Spring on PostgreSQL (row lock form), with the kill drill. */
@StarterDatabase.On(Engine.POSTGRES)
class PostgresSpringHandlerIT extends SpringHandlerContract {

    @Test
    void a_delivery_whose_connection_is_killed_mid_handler_commits_nothing_the_service_wrote_and_comes_again()
            throws Exception {
        publish("kill-1");
        int pid = handler.killPid.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        try (Connection c = StarterDatabase.current().connect(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT pg_terminate_backend(" + pid + ")")) {
            assertThat(rs.next() && rs.getBoolean(1)).as("the delivery's server process was ended").isTrue();
        }
        handler.killed.countDown();
        // the acknowledgement's commit fails with the connection: the job returns, and its second call acknowledges
        awaitSettled("kill-1", 2);
        assertThat(ledger.rows("kill-1")).isZero();
    }
}
