package dev.tablequeue.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.spring.TableQueueLifecycle;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

/**
 * The sample, started as its {@code main} starts it (with a mailer the test controls, on a fresh SQLite file),
 * signs a user up in a {@code @Transactional} method and sends the welcome mail from the queue; closed while a
 * second mail is being sent, it lets that mail finish and acknowledges its job before the context is gone.
 */
class SampleApplicationIT {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path folder;

    private String url() {
        return "jdbc:sqlite:" + folder.resolve("sample.db") + "?busy_timeout=10000";
    }

    /** A mailer that records what it sent, and holds the mail of {@code slow@..} until the test lets it go. */
    static final class GatedMailer implements Mailer {
        final List<String> sent = new CopyOnWriteArrayList<>();
        final CountDownLatch slowStarted = new CountDownLatch(1);
        final CountDownLatch releaseSlow = new CountDownLatch(1);

        @Override
        public void sendWelcome(String email) throws InterruptedException {
            if (email.startsWith("slow@")) {
                slowStarted.countDown();
                if (!releaseSlow.await(60, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the test never released the mail to " + email);
                }
            }
            sent.add(email);
        }
    }

    /** The test's mailer, in place of the sample's. */
    @Configuration(proxyBeanMethods = false)
    static class Mail {
        @Bean
        @Primary
        GatedMailer gatedMailer() {
            return new GatedMailer();
        }
    }

    @Test
    void a_signup_is_welcomed_and_closing_the_service_lets_the_mail_in_flight_finish() throws Exception {
        ConfigurableApplicationContext context = new SpringApplicationBuilder(SampleApplication.class, Mail.class)
                .run("--spring.datasource.url=" + url());
        Signups signups = context.getBean(Signups.class);
        GatedMailer mailer = context.getBean(GatedMailer.class);
        QueueBroker broker = context.getBean(QueueBroker.class);
        TableQueueLifecycle lifecycle = context.getBean(TableQueueLifecycle.class);
        assertThat(broker.isRunning()).isTrue();
        signups.signUp("ada@example.com");
        await().atMost(WAIT).until(() -> mailer.sent.contains("ada@example.com"));

        signups.signUp("slow@example.com");
        assertThat(mailer.slowStarted.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        Thread closing = new Thread(context::close, "closing the service");
        closing.start();
        await().atMost(WAIT).until(() -> !broker.isRunning());
        assertThat(closing.isAlive()).as("the close waits for the mail in flight").isTrue();
        mailer.releaseSlow.countDown();
        closing.join(WAIT.toMillis());
        assertThat(closing.isAlive()).isFalse();

        assertThat(mailer.sent).containsExactly("ada@example.com", "slow@example.com");
        assertThat(lifecycle.shutdownReport().deliveriesAbandoned()).isZero();
        try (Connection c = DriverManager.getConnection(url()); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*), count(processed_at) FROM welcome_jobs")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).as("welcome jobs").isEqualTo(2);
            assertThat(rs.getInt(2)).as("acknowledged welcome jobs").isEqualTo(2);
        }
        try (Connection c = DriverManager.getConnection(url()); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM accounts")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(2);
        }
    }
}
