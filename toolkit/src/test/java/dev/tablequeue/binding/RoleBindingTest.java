package dev.tablequeue.binding;

import static dev.tablequeue.binding.ExampleTables.EMAIL_JOBS;
import static dev.tablequeue.binding.ExampleTables.JOBS;
import static dev.tablequeue.binding.ExampleTables.ODD_JOBS;
import static dev.tablequeue.binding.ExampleTables.ORDER_JOBS;
import static dev.tablequeue.binding.ExampleTables.PAYOUTS;
import static dev.tablequeue.binding.ExampleTables.SUPPORT_TICKETS;
import static dev.tablequeue.binding.ExampleTables.SYNC_JOBS;
import static dev.tablequeue.binding.Refusals.refusedFor;
import static dev.tablequeue.binding.Refusals.rules;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The rules on roles and columns that {@code build()} checks: each role once, each column once, in the table. */
class RoleBindingTest {

    private static RoleBinding.Builder<Record> tickets() {
        return RoleBinding.of(SUPPORT_TICKETS, SUPPORT_TICKETS.ID);
    }

    private static RoleBinding.Builder<Record> orders() {
        return RoleBinding.of(ORDER_JOBS, ORDER_JOBS.JOB_ID).group(ORDER_JOBS.NAME);
    }

    static Stream<Arguments> rolesDeclaredTwice() {
        var t = SUPPORT_TICKETS;
        return Stream.of(
                declaredTwice("priority", b -> b.priority(t.URGENCY).priority(t.ATTEMPT)),
                declaredTwice("partitionKey", b -> b.partitionKey(t.CUSTOMER).partitionKey(t.QUEUE)),
                declaredTwice("retryAfter", b -> b.retryAfter(t.RETRY_AFTER).retryAfter(t.PROCESSED_AT)),
                declaredTwice("attempt", b -> b.attempt(t.ATTEMPT).attempt(t.URGENCY)),
                declaredTwice("processedAt", b -> b.processedAt(t.PROCESSED_AT).processedAt(t.RETRY_AFTER)),
                declaredTwice("lease", b -> b.lease(t.LOCKED_UNTIL).lease(t.PROCESSED_AT)),
                declaredTwice("headers", b -> b.headers(t.HEADERS).headers(t.CUSTOMER)),
                declaredTwice("payload", b -> b.payload(t.PAYLOAD).payload(t.QUEUE)),
                declaredTwice("lastError", b -> b.lastError(t.LAST_ERROR).lastError(t.LAST_ERROR)),
                declaredTwice("uniqueKey", b -> b.uniqueKey(t.CUSTOMER).uniqueKey(t.QUEUE)));
    }

    private static Arguments declaredTwice(String setting, UnaryOperator<RoleBinding.Builder<Record>> twice) {
        return Arguments.of(setting, twice);
    }

    @ParameterizedTest(name = "{0}(..) declared twice")
    @MethodSource("rolesDeclaredTwice")
    void a_role_declared_twice_is_refused_once_naming_its_setting(
            String setting, UnaryOperator<RoleBinding.Builder<Record>> twice) {
        refusedFor(twice.apply(tickets()), "support_tickets", setting + "(..) is set twice");
    }

    @Test
    void a_group_declared_twice_is_refused() {
        refusedFor(tickets().group(SUPPORT_TICKETS.QUEUE).group(SUPPORT_TICKETS.CUSTOMER),
                "support_tickets", "the group is set twice");
    }

    @Test
    void group_beside_fifo_group_is_refused_as_one_role_set_twice() {
        refusedFor(RoleBinding.of(SYNC_JOBS, SYNC_JOBS.ID).group(SYNC_JOBS.TARGET).fifoGroup(SYNC_JOBS.TARGET),
                "sync_jobs", "the group is set twice", "group(..) and fifoGroup(..) name one role");
    }

    @Test
    void a_fifo_group_declared_twice_is_refused() {
        refusedFor(RoleBinding.of(SYNC_JOBS, SYNC_JOBS.ID).fifoGroup(SYNC_JOBS.TARGET).fifoGroup(SYNC_JOBS.TARGET),
                "sync_jobs", "the group is set twice");
    }

    @Test
    void a_column_playing_two_roles_is_refused_naming_both() {
        refusedFor(RoleBinding.of(EMAIL_JOBS, EMAIL_JOBS.JOB_ID).group(EMAIL_JOBS.NAME).partitionKey(EMAIL_JOBS.NAME),
                "email_jobs", "column \"name\" plays two roles", "group", "partitionKey");
    }

    @Test
    void the_id_column_playing_another_role_is_refused() {
        refusedFor(RoleBinding.of(EMAIL_JOBS, EMAIL_JOBS.JOB_ID).partitionKey(EMAIL_JOBS.JOB_ID),
                "email_jobs", "column \"job_id\" plays two roles", "id", "partitionKey");
    }

    @Test
    void a_header_field_that_also_plays_a_role_is_refused() {
        refusedFor(orders().headerFields(ORDER_JOBS.TENANT, ORDER_JOBS.NAME),
                "order_jobs", "column \"name\" plays two roles", "group", "headerFields");
    }

    @Test
    void a_data_column_that_is_also_a_header_field_is_refused() {
        refusedFor(orders().headerFields(ORDER_JOBS.TENANT).data(ORDER_JOBS.ORDER_ID, ORDER_JOBS.TENANT),
                "order_jobs", "column \"tenant\" plays two roles", "headerFields", "data");
    }

    @Test
    void a_role_column_the_table_does_not_have_is_refused() {
        refusedFor(RoleBinding.of(EMAIL_JOBS, EMAIL_JOBS.JOB_ID).group(SYNC_JOBS.TARGET),
                "email_jobs", "column \"target\" (group) is not a column of the table but of \"sync_jobs\"");
    }

    @Test
    void a_header_field_the_table_does_not_have_is_refused() {
        refusedFor(orders().headerFields(ORDER_JOBS.TENANT, SYNC_JOBS.TARGET),
                "order_jobs", "column \"target\" (headerFields) is not a column of the table but of \"sync_jobs\"");
    }

    @Test
    void a_data_column_the_table_does_not_have_is_refused() {
        refusedFor(orders().data(ORDER_JOBS.ORDER_ID, DSL.field(DSL.name("recipient"), String.class)),
                "order_jobs", "column \"recipient\" (data) is not a column of the table");
    }

    @Test
    void a_column_of_another_table_with_a_name_this_table_has_is_refused() {
        refusedFor(RoleBinding.of(EMAIL_JOBS, EMAIL_JOBS.JOB_ID).payload(JOBS.PAYLOAD),
                "email_jobs", "column \"payload\" (payload) is not a column of the table but of \"jobs\"");
    }

    @Test
    void an_id_column_of_another_table_is_refused() {
        refusedFor(RoleBinding.of(EMAIL_JOBS, JOBS.JOB_ID).payload(EMAIL_JOBS.PAYLOAD),
                "email_jobs", "column \"job_id\" (id) is not a column of the table but of \"jobs\"");
    }

    @Test
    void headers_beside_header_fields_are_refused_as_two_layouts() {
        refusedFor(tickets().headers(SUPPORT_TICKETS.HEADERS).headerFields(SUPPORT_TICKETS.CUSTOMER),
                "support_tickets", "headers(..) and headerFields(..) are two layouts of the headers");
    }

    @Test
    void header_fields_declared_twice_are_refused() {
        refusedFor(orders().headerFields(ORDER_JOBS.TENANT).headerFields(ORDER_JOBS.TRACE),
                "order_jobs", "headerFields(..) is set twice");
    }

    @Test
    void data_declared_twice_is_refused() {
        refusedFor(orders().data(ORDER_JOBS.ORDER_ID).data(ORDER_JOBS.NOTE), "order_jobs", "data(..) is set twice");
    }

    @Test
    void data_in_payload_mode_names_columns_the_insert_writes() {
        RoleBinding<?> b = RoleBinding.of(EMAIL_JOBS, EMAIL_JOBS.JOB_ID).payload(EMAIL_JOBS.PAYLOAD)
                .data(EMAIL_JOBS.NAME).build();
        assertThat(b.payloadMode()).isTrue();
        assertThat(b.insertColumns()).extracting(f -> f.getName()).containsExactly("payload", "name");
    }

    @Test
    void a_payload_column_that_holds_neither_bytes_text_nor_json_is_refused() {
        refusedFor(RoleBinding.of(ODD_JOBS, ODD_JOBS.ID).payload(ODD_JOBS.BODY),
                "odd_jobs", "payload column \"body\" must hold byte[], String, JSON or JSONB", "not Integer");
    }

    @Test
    void a_headers_column_that_holds_neither_text_nor_json_is_refused() {
        refusedFor(RoleBinding.of(ODD_JOBS, ODD_JOBS.ID).headers(ODD_JOBS.META),
                "odd_jobs", "headers column \"meta\" must hold String, JSON or JSONB", "not Long");
    }

    @Test
    void a_last_error_column_keeps_a_thousand_characters_or_its_declared_length_if_shorter_and_is_never_inserted() {
        var t = SUPPORT_TICKETS;
        RoleBinding<?> text = tickets().payload(t.PAYLOAD).processedAt(t.PROCESSED_AT).lastError(t.LAST_ERROR).build();
        assertThat(text.lastErrorLength()).isEqualTo(RoleBinding.LAST_ERROR_LONGEST).isEqualTo(1000);
        assertThat(text.insertColumns()).extracting(Field::getName).containsExactly("payload");
        assertThat(RoleBinding.of(ODD_JOBS, ODD_JOBS.ID).lastError(ODD_JOBS.FAILURE).build().lastErrorLength())
                .isEqualTo(255);
        assertThat(tickets().payload(t.PAYLOAD).build().lastErrorLength()).isZero();
    }

    @SuppressWarnings("unchecked")
    static Stream<Arguments> lastErrorColumnsRefused() {
        var t = ODD_JOBS;
        return Stream.of(
                Arguments.of(t.SHORT, List.of("lastError column \"short\" holds 40 characters", "at least 100")),
                Arguments.of(t.REASON, List.of("lastError column \"reason\" is NOT NULL without a default",
                        "the insert would fail")),
                Arguments.of((Field<String>) (Field<?>) t.META, List.of("lastError column \"meta\" must hold String",
                        "not Long")));
    }

    @ParameterizedTest(name = "lastError({0})")
    @MethodSource("lastErrorColumnsRefused")
    void a_last_error_column_too_short_not_null_without_a_default_or_not_text_is_refused(
            Field<String> column, List<String> fragments) {
        refusedFor(RoleBinding.of(ODD_JOBS, ODD_JOBS.ID).lastError(column), "odd_jobs", fragments.toArray(String[]::new));
    }

    @Test
    void a_last_error_column_that_plays_another_role_is_refused() {
        refusedFor(tickets().partitionKey(SUPPORT_TICKETS.LAST_ERROR).lastError(SUPPORT_TICKETS.LAST_ERROR),
                "support_tickets", "column \"last_error\" plays two roles", "partitionKey", "lastError");
    }

    @Test
    void a_table_in_a_schema_is_named_with_its_schema() {
        refusedFor(RoleBinding.of(PAYOUTS, PAYOUTS.ID).payload(PAYOUTS.PAYLOAD).payload(PAYOUTS.PAYLOAD),
                "billing.payouts", "payload(..) is set twice");
    }

    @Test
    void a_null_table_is_refused_before_anything_else() {
        assertThatNullPointerException()
                .isThrownBy(() -> RoleBinding.of((Table<Record>) null, EMAIL_JOBS.JOB_ID))
                .withMessageContaining("needs its table");
    }

    @Test
    void a_null_id_is_refused_naming_the_table() {
        assertThatNullPointerException()
                .isThrownBy(() -> RoleBinding.of(EMAIL_JOBS, null))
                .withMessageContaining("\"email_jobs\"")
                .withMessageContaining("needs its id column");
    }

    @Test
    void a_null_role_column_is_refused_naming_the_table_and_the_setting() {
        Field<String> missing = null;
        assertThatNullPointerException()
                .isThrownBy(() -> RoleBinding.of(EMAIL_JOBS, EMAIL_JOBS.JOB_ID).group(missing))
                .withMessageContaining("\"email_jobs\"")
                .withMessageContaining("group(..)");
    }

    @Test
    void a_declaration_that_breaks_several_rules_is_refused_with_every_rule_in_one_message() {
        var t = SUPPORT_TICKETS;
        var declaration = tickets()
                .group(t.QUEUE)
                .partitionKey(t.QUEUE)
                .payload(t.PAYLOAD)
                .headers(t.HEADERS)
                .headerFields(t.CUSTOMER)
                .lease(t.LOCKED_UNTIL)
                .databaseClock()
                .ownLock((ctx, key) -> true);

        assertThat(rules(declaration, "support_tickets"))
                .hasSize(4)
                .anySatisfy(rule -> assertThat(rule).contains("column \"queue\" plays two roles"))
                .anySatisfy(rule -> assertThat(rule).contains("lease(..) and databaseClock() cannot go together"))
                .anySatisfy(rule -> assertThat(rule).contains("only taken in the advisory form"))
                .anySatisfy(rule -> assertThat(rule).contains("two layouts"));
    }

    @Test
    void a_key_unique_while_pending_on_a_table_that_deletes_its_acknowledged_rows_is_refused() {
        refusedFor(tickets().uniqueKeyWhilePending(SUPPORT_TICKETS.CUSTOMER), "support_tickets",
                "uniqueKeyWhilePending(..)", "no processedAt(..) column", "declare uniqueKey(..)");
    }

    @Test
    void a_unique_key_is_written_by_the_insert_and_says_whether_only_pending_rows_hold_it() {
        RoleBinding<Record> always = tickets().uniqueKey(SUPPORT_TICKETS.CUSTOMER).build();
        RoleBinding<Record> pending = tickets().processedAt(SUPPORT_TICKETS.PROCESSED_AT)
                .partitionKey(SUPPORT_TICKETS.QUEUE).uniqueKeyWhilePending(SUPPORT_TICKETS.CUSTOMER).build();

        assertThat(always.column(Role.UNIQUE_KEY)).contains(SUPPORT_TICKETS.CUSTOMER);
        assertThat(always.uniqueWhilePending()).isFalse();
        assertThat(always.insertColumns()).contains(SUPPORT_TICKETS.CUSTOMER);
        assertThat(pending.uniqueWhilePending()).isTrue();
        assertThat(pending.inKeyOrder().uniqueWhilePending()).isTrue();
    }
}
