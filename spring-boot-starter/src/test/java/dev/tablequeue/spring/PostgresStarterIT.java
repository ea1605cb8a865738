package dev.tablequeue.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.test.Engine;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

/** The starter on PostgreSQL, in the row lock form, with LISTEN/NOTIFY on. */
@StarterDatabase.On(Engine.POSTGRES)
@TestPropertySource(properties = "tablequeue.listen-notify=true")
class PostgresStarterIT extends StarterContract {

    @Test
    void health_says_the_notification_listener_is_connected() {
        assertThat(health.health().getDetails()).containsEntry("listening", true);
    }
}
