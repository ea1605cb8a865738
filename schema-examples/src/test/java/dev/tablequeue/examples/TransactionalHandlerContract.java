package dev.tablequeue.examples;

import static dev.tablequeue.examples.jooq.Tables.ACCOUNTS;
import static dev.tablequeue.examples.jooq.Tables.SIGNUP_JOBS;
import static dev.tablequeue.examples.jooq.Tables.WELCOME_JOBS;
import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.BrokerListener;
import dev.tablequeue.broker.Delivery;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.JacksonCodec;
import dev.tablequeue.broker.Message;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.examples.codegen.Codegen;
import dev.tablequeue.examples.jooq.tables.records.SignupJobsRecord;
import dev.tablequeue.examples.jooq.tables.records.WelcomeJobsRecord;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.FreshDatabase;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.jooq.tools.jdbc.JDBCUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The root README's example of a transactional handler, run as it is written on the migrated example schema: a
 * signup in {@code signup_jobs} opens its account in {@code accounts} and publishes its welcome job into
 * {@code welcome_jobs} through {@code delivery.tx()}, and the acknowledgement commits the three together. A
 * retry rolls the attempt's account and welcome job back, so only the attempt that is acknowledged leaves them.
 * Each database runs this suite through a small subclass; the tests are final, so no subclass drops one.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class TransactionalHandlerContract {
    private static final Duration WAIT = Duration.ofSeconds(30);

    /** A signup, as the README's handler reads it. */
    public record Signup(String email) {}

    /** The welcome email's job, as the README's handler publishes it. */
    public record Welcome(String email) {}

    /** The database under test. */
    protected abstract Engine engine();

    /** The generator's view of the same database: where its migrations are. */
    protected abstract Codegen.Flavour flavour();

    /**
     * The binding of {@code signup_jobs} the README's subscription takes: {@code ExampleQueues.OPEN_ACCOUNT}
     * (the row lock form) wherever the database serves that form.
     */
    protected RoleBinding<SignupJobsRecord> openAccount() {
        return ExampleQueues.OPEN_ACCOUNT;
    }

    /**
     * The binding of {@code welcome_jobs} the README's handler publishes into: {@code ExampleQueues.SEND_WELCOME}
     * (the row lock form) wherever the database serves that form.
     */
    protected RoleBinding<WelcomeJobsRecord> sendWelcome() {
        return ExampleQueues.SEND_WELCOME;
    }

    protected FreshDatabase db;
    protected HikariDataSource pool;

    @BeforeAll
    void migrate() {
        db = FreshDatabase.create(engine(), getClass().getSimpleName());
        Codegen.migrate(db.url(), flavour().classpathLocation());
        pool = db.pool(6);
    }

    @AfterAll
    void drop() {
        if (pool != null) {
            pool.close();
        }
        if (db != null) {
            db.close();
        }
    }

    @BeforeEach
    void emptyTheTables() {
        db.execute("DELETE FROM signup_jobs", "DELETE FROM welcome_jobs", "DELETE FROM accounts");
    }

    @Test
    final void each_acknowledged_signup_commits_its_account_and_one_welcome_job() throws Exception {
        List<String> emails = List.of("ada@example.com", "alan@example.com", "grace@example.com");
        Acks acks = new Acks(emails.size());
        QueueBroker broker = broker(acks);
        // the README's names for the bindings this database takes, so that what follows is its text word for word
        RoleBinding<SignupJobsRecord> OPEN_ACCOUNT = openAccount();
        RoleBinding<WelcomeJobsRecord> SEND_WELCOME = sendWelcome();
        try {
            broker.subscribe(InboxQueue.of(OPEN_ACCOUNT, "signups"))
                .payload(Signup.class)
                .transactional()
                .handle((signup, delivery) -> {
                    delivery.tx().insertInto(ACCOUNTS).set(ACCOUNTS.EMAIL, signup.email()).execute();
                    broker.publisher().publish(delivery.tx(), SEND_WELCOME, Message.of("welcome", new Welcome(signup.email())));
                    return Outcome.ack();
                });
            broker.start();
            for (String email : emails) {
                broker.publisher().publish(OPEN_ACCOUNT, Message.of("signup", new Signup(email)));
            }
            assertThat(acks.await()).as("every signup acknowledged within " + WAIT).isTrue();
        } finally {
            broker.close();
        }

        assertThat(acks.acknowledged).hasValue(emails.size());
        assertThat(acks.retried).hasValue(0);
        assertThat(accounts()).containsExactlyInAnyOrderElementsOf(emails);
        assertThat(welcomes()).containsExactlyInAnyOrderElementsOf(emails);
        assertThat(dsl().fetchCount(SIGNUP_JOBS)).as("an acknowledged signup_jobs row is deleted").isZero();
    }

    @Test
    final void a_signup_retried_on_its_first_attempt_keeps_only_its_second_attempts_account_and_welcome_job()
            throws Exception {
        String retried = "retried@example.com";
        List<String> emails = List.of("ada@example.com", retried, "grace@example.com");
        Acks acks = new Acks(emails.size());
        // what the retried signup's second attempt finds in its own transaction before it writes
        List<String> secondAttemptFound = new CopyOnWriteArrayList<>();
        QueueBroker broker = broker(acks);
        RoleBinding<SignupJobsRecord> OPEN_ACCOUNT = openAccount();
        RoleBinding<WelcomeJobsRecord> SEND_WELCOME = sendWelcome();
        try {
            // the README's handler, which then answers a retry to the first attempt of one signup
            broker.subscribe(InboxQueue.of(OPEN_ACCOUNT, "signups"))
                .payload(Signup.class)
                .transactional()
                .handle((signup, delivery) -> {
                    boolean first = delivery.attempt().orElseThrow() == 1;
                    if (signup.email().equals(retried) && !first) {
                        secondAttemptFound.add(found(delivery.tx(), retried));
                    }
                    delivery.tx().insertInto(ACCOUNTS).set(ACCOUNTS.EMAIL, signup.email()).execute();
                    broker.publisher().publish(delivery.tx(), SEND_WELCOME, Message.of("welcome", new Welcome(signup.email())));
                    return signup.email().equals(retried) && first ? Outcome.retry() : Outcome.ack();
                });
            broker.start();
            for (String email : emails) {
                broker.publisher().publish(OPEN_ACCOUNT, Message.of("signup", new Signup(email)));
            }
            assertThat(acks.await()).as("every signup acknowledged within " + WAIT).isTrue();
        } finally {
            broker.close();
        }

        assertThat(acks.retried).hasValue(1);
        assertThat(acks.acknowledged).hasValue(emails.size());
        assertThat(secondAttemptFound).as("the first attempt's writes were rolled back before the second ran")
                .containsExactly("0 accounts, 0 welcome jobs");
        // one account and one welcome job each: the retried signup's are its second attempt's
        assertThat(accounts()).containsExactlyInAnyOrderElementsOf(emails);
        assertThat(welcomes()).containsExactlyInAnyOrderElementsOf(emails);
        assertThat(dsl().fetchCount(SIGNUP_JOBS)).isZero();
    }

    private QueueBroker broker(BrokerListener listener) {
        return QueueBroker.builder(pool).pollInterval(Duration.ofMillis(50)).listener(listener).build();
    }

    private DSLContext dsl() {
        return DSL.using(pool, JDBCUtils.dialect(db.url()));
    }

    private List<String> accounts() {
        return dsl().select(ACCOUNTS.EMAIL).from(ACCOUNTS).fetch(ACCOUNTS.EMAIL);
    }

    private List<String> welcomes() {
        return welcomes(dsl());
    }

    /** The email of each welcome job {@code ctx} sees, decoded from its payload. */
    private static List<String> welcomes(DSLContext ctx) {
        JacksonCodec codec = new JacksonCodec();
        return ctx.select(WELCOME_JOBS.PAYLOAD).from(WELCOME_JOBS).fetch(r -> {
            try {
                return codec.decode(r.value1(), Welcome.class).email();
            } catch (Exception e) {
                throw new AssertionError("a welcome_jobs payload that does not decode: " + e, e);
            }
        });
    }

    private static String found(DSLContext tx, String email) {
        int accounts = tx.fetchCount(ACCOUNTS, ACCOUNTS.EMAIL.eq(email));
        long welcomes = welcomes(tx).stream().filter(email::equals).count();
        return accounts + " accounts, " + welcomes + " welcome jobs";
    }

    /** Counts the acknowledgements and retries written, and opens a latch when {@code expected} were acknowledged. */
    private static final class Acks implements BrokerListener {
        final AtomicInteger acknowledged = new AtomicInteger();
        final AtomicInteger retried = new AtomicInteger();
        private final CountDownLatch done;

        Acks(int expected) {
            done = new CountDownLatch(expected);
        }

        boolean await() throws InterruptedException {
            return done.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        }

        @Override
        public void settled(Delivery delivery, Outcome outcome) {
            switch (outcome) {
                case Outcome.Ack ack -> {
                    acknowledged.incrementAndGet();
                    done.countDown();
                }
                case Outcome.Retry retry -> retried.incrementAndGet();
                default -> { }
            }
        }
    }
}
