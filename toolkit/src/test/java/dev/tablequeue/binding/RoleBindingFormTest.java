package dev.tablequeue.binding;

import static dev.tablequeue.binding.ExampleTables.EMAIL_JOBS;
import static dev.tablequeue.binding.ExampleTables.JOBS;
import static dev.tablequeue.binding.ExampleTables.REPORT_JOBS;
import static dev.tablequeue.binding.ExampleTables.SYNC_JOBS;
import static dev.tablequeue.binding.Refusals.refusedFor;

import org.jooq.Record;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/** The rules on the form, the clock, the opening and the advisory lock key that {@code build()} checks. */
class RoleBindingFormTest {

    private static RoleBinding.Builder<Record> reports() {
        return RoleBinding.of(REPORT_JOBS, REPORT_JOBS.ID).attempt(REPORT_JOBS.ATTEMPT).payload(REPORT_JOBS.PAYLOAD);
    }

    private static RoleBinding.Builder<Record> jobs() {
        return RoleBinding.of(JOBS, JOBS.JOB_ID).attempt(JOBS.ATTEMPT).payload(JOBS.PAYLOAD);
    }

    @Test
    void a_lease_on_the_database_clock_is_refused() {
        refusedFor(reports().lease(REPORT_JOBS.LOCKED_UNTIL).databaseClock(),
                "report_jobs", "the lease form reads the host's clock", "lease(..) and databaseClock()");
    }

    @Test
    void the_database_clock_declared_before_a_lease_is_refused_all_the_same() {
        refusedFor(reports().databaseClock().lease(REPORT_JOBS.LOCKED_UNTIL),
                "report_jobs", "lease(..) and databaseClock() cannot go together");
    }

    @Test
    void a_lease_beside_an_advisory_lock_is_refused_as_two_forms() {
        refusedFor(reports().lease(REPORT_JOBS.LOCKED_UNTIL).advisory("reports-{id}"),
                "report_jobs", "one form per table", "lease(..)", "advisory(..)");
    }

    @Test
    void an_advisory_lock_beside_a_lease_is_refused_as_two_forms() {
        refusedFor(reports().advisory("reports-{id}").lease(REPORT_JOBS.LOCKED_UNTIL),
                "report_jobs", "one form per table", "advisory(..)", "lease(..)");
    }

    @Test
    void an_advisory_lock_declared_twice_is_refused_once() {
        refusedFor(jobs().advisory("jobs-{job_id}").advisory(KeyPart.literal("jobs-"), KeyPart.column(JOBS.JOB_ID)),
                "jobs", "advisory(..) is set twice");
    }

    @Test
    void a_fifo_group_in_the_advisory_form_is_refused_and_told_to_key_on_the_group() {
        refusedFor(RoleBinding.of(SYNC_JOBS, SYNC_JOBS.ID).fifoGroup(SYNC_JOBS.TARGET).advisory("sync-{id}"),
                "sync_jobs", "FIFO groups are not taken in the advisory form",
                "put the group's column into the lock key");
    }

    @Test
    void the_clock_declared_twice_is_refused() {
        refusedFor(jobs().databaseClock().databaseClock(), "jobs", "the clock is set twice");
    }

    @Test
    void an_isolation_level_beside_a_sqlite_mode_is_refused_as_two_openings() {
        refusedFor(jobs().isolation(Isolation.READ_COMMITTED).sqliteMode(SqliteMode.IMMEDIATE),
                "jobs", "one opening per table", "READ_COMMITTED", "IMMEDIATE");
    }

    @Test
    void an_isolation_level_declared_twice_is_refused() {
        refusedFor(jobs().isolation(Isolation.READ_COMMITTED).isolation(Isolation.SERIALIZABLE),
                "jobs", "one opening per table", "READ_COMMITTED", "SERIALIZABLE");
    }

    @Test
    void a_sqlite_mode_declared_twice_is_refused() {
        refusedFor(jobs().sqliteMode(SqliteMode.DEFERRED).sqliteMode(SqliteMode.EXCLUSIVE),
                "jobs", "one opening per table", "DEFERRED", "EXCLUSIVE");
    }

    @Test
    void an_advisory_key_naming_a_column_the_table_lacks_is_refused() {
        refusedFor(jobs().advisory("jobs-{account_id}"),
                "jobs", "the advisory lock key \"jobs-{account_id}\" names column \"account_id\"", "does not have");
    }

    @Test
    void an_advisory_key_without_a_column_is_refused_because_every_row_would_share_one_lock() {
        refusedFor(jobs().advisory("jobs"), "jobs", "the advisory lock key \"jobs\" names no column", "one lock");
    }

    @Test
    void an_advisory_key_with_an_unclosed_brace_is_refused() {
        refusedFor(jobs().advisory("jobs-{job_id"),
                "jobs", "the advisory lock key \"jobs-{job_id\"", "unbalanced brace");
    }

    @Test
    void an_advisory_key_with_a_stray_brace_before_a_placeholder_is_refused() {
        refusedFor(jobs().advisory("jobs}-{job_id}"),
                "jobs", "the advisory lock key \"jobs}-{job_id}\"", "unbalanced brace");
    }

    @Test
    void an_advisory_key_with_an_empty_placeholder_is_refused() {
        refusedFor(jobs().advisory("jobs-{job_id}-{}"),
                "jobs", "the advisory lock key \"jobs-{job_id}-{}\"", "placeholder", "names no column");
    }

    @Test
    void an_empty_advisory_key_template_is_refused() {
        refusedFor(jobs().advisory(""), "jobs", "the advisory lock key is empty");
    }

    @Test
    void an_advisory_key_of_no_parts_is_refused() {
        refusedFor(jobs().advisory(new KeyPart[0]), "jobs", "the advisory lock key is empty");
    }

    @Test
    void an_advisory_key_of_literal_parts_alone_is_refused_because_every_row_would_share_one_lock() {
        refusedFor(jobs().advisory(KeyPart.literal("jobs-"), KeyPart.literal("all")),
                "jobs", "the advisory lock key names no column", "one lock");
    }

    @Test
    void an_advisory_key_part_naming_a_column_the_table_lacks_is_refused() {
        refusedFor(jobs().advisory(KeyPart.literal("jobs-"), KeyPart.column(DSL.field(DSL.name("name")))),
                "jobs", "the advisory lock key names column \"name\"", "does not have");
    }

    @Test
    void an_advisory_key_part_naming_a_column_of_another_table_is_refused() {
        refusedFor(jobs().advisory(KeyPart.literal("jobs-"), KeyPart.column(EMAIL_JOBS.JOB_ID)),
                "jobs", "the advisory lock key names column \"job_id\"",
                "not a column of the table but of \"email_jobs\"");
    }
}
