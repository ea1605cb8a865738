package dev.tablequeue.examples;

import static dev.tablequeue.examples.ExampleQueues.OPEN_ACCOUNT;
import static dev.tablequeue.examples.jooq.Tables.SIGNUP_JOBS;
import static dev.tablequeue.examples.jooq.Tables.WELCOME_JOBS;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tablequeue.ConfigurationException;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.broker.InboxQueue;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.examples.codegen.Codegen;
import dev.tablequeue.examples.jooq.tables.records.SignupJobsRecord;
import dev.tablequeue.examples.jooq.tables.records.WelcomeJobsRecord;
import dev.tablequeue.test.Engine;
import org.junit.jupiter.api.Test;

/**
 * The README's transactional handler on SQLite, which has no row locks: {@code signup_jobs} and
 * {@code welcome_jobs} are taken in the advisory form here, one key per row, by bindings of the same columns as
 * {@code OPEN_ACCOUNT} and {@code SEND_WELCOME} (which the SQLite dialect refuses, to subscribe and to publish).
 */
class SqliteTransactionalHandlerIT extends TransactionalHandlerContract {
    private static final RoleBinding<SignupJobsRecord> OPEN_ACCOUNT_BY_KEY =
            RoleBinding.of(SIGNUP_JOBS, SIGNUP_JOBS.ID)
                    .advisory("signup_jobs-{id}")
                    .attempt(SIGNUP_JOBS.ATTEMPT)
                    .payload(SIGNUP_JOBS.PAYLOAD)
                    .build();
    private static final RoleBinding<WelcomeJobsRecord> SEND_WELCOME_BY_KEY =
            RoleBinding.of(WELCOME_JOBS, WELCOME_JOBS.ID)
                    .advisory("welcome_jobs-{id}")
                    .payload(WELCOME_JOBS.PAYLOAD)
                    .build();

    @Override
    protected Engine engine() {
        return Engine.SQLITE;
    }

    @Override
    protected Codegen.Flavour flavour() {
        return Codegen.Flavour.SQLITE;
    }

    @Override
    protected RoleBinding<SignupJobsRecord> openAccount() {
        return OPEN_ACCOUNT_BY_KEY;
    }

    @Override
    protected RoleBinding<WelcomeJobsRecord> sendWelcome() {
        return SEND_WELCOME_BY_KEY;
    }

    @Test
    void open_account_itself_is_refused_on_sqlite_at_start_naming_the_row_lock_form() {
        QueueBroker broker = QueueBroker.builder(pool).build();
        try {
            broker.subscribe(InboxQueue.of(OPEN_ACCOUNT, "signups"))
                    .payload(Signup.class)
                    .transactional()
                    .handle((signup, delivery) -> Outcome.ack());

            assertThatThrownBy(broker::start).isInstanceOf(ConfigurationException.class)
                    .hasMessageContaining("signup_jobs")
                    .hasMessageContaining("row lock");
        } finally {
            broker.close();
        }
    }
}
