package dev.tablequeue.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.outbox.Outbox;
import dev.tablequeue.outbox.memory.MemoryBroker;
import dev.tablequeue.spring.TableQueueLifecycle;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.FreshDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

/**
 * The sample, started as its {@code main} starts it (with a mailer the test controls, on a fresh SQLite database
 * of the test kit's), signs a user up in a {@code @Transactional} method, which records the account event in the
 * outbox and sends it after the commit, and sends the welcome mail from the queue in a transactional handler,
 * whose {@code @Transactional} service records the mail with the job's acknowledgement; closed while a second
 * mail is being sent, it lets that mail finish and acknowledges its job before the context is gone.
 */
class SampleApplicationIT {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private FreshDatabase db;

    @BeforeEach
    void database() {
        db = FreshDatabase.create(Engine.SQLITE, "spring_sample");
    }

    @AfterEach
    void drop() {
        db.close();
    }

    private String url() {
        return db.url() + "?busy_timeout=10000";
    }

    /** The rows of {@code sql}'s one column, as text. */
    private List<String> column(String sql) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Connection c = db.connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                values.add(rs.getString(1));
            }
        }
        return values;
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
        assertThat(context.getBean(Outbox.class).enabled()).isTrue();
        // another service's consumer of the account events, on the transport they leave by
        List<String> events = new CopyOnWriteArrayList<>();
        context.getBean(MemoryBroker.class).subscribe(Queues.ACCOUNT_CREATED, AccountCreated.class, 1, (event, d) -> {
            events.add(event.email() + " #" + d.headers().get(Outbox.ID_HEADER));
            return Outcome.ack();
        });
        assertThat(broker.isRunning()).isTrue();
        signups.signUp("ada@example.com");
        await().atMost(WAIT).until(() -> mailer.sent.contains("ada@example.com"));
        await().atMost(WAIT).until(() -> events.size() == 1);
        assertThat(events).containsExactly("ada@example.com #" + column("SELECT id FROM account_events").get(0));

        signups.signUp("slow@example.com");
        await().atMost(WAIT).until(() -> events.size() == 2);
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
        assertThat(column("SELECT count(*) || '/' || count(processed_at) FROM welcome_jobs"))
                .as("welcome jobs / acknowledged").containsExactly("2/2");
        assertThat(column("SELECT count(*) FROM accounts")).containsExactly("2");
        assertThat(column("SELECT email FROM sent_mails ORDER BY email"))
                .as("the mails the handler's @Transactional service recorded, committed with the acknowledgements")
                .containsExactly("ada@example.com", "slow@example.com");
        assertThat(column("SELECT count(*) FROM account_events")).as("account events recorded").containsExactly("2");
        assertThat(events).hasSize(2).last().asString().startsWith("slow@example.com #");
    }
}
