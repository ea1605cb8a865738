package dev.tablequeue.binding;

import static dev.tablequeue.binding.ExampleTables.EMAIL_JOBS;
import static dev.tablequeue.binding.ExampleTables.IMPORT_JOBS;
import static dev.tablequeue.binding.ExampleTables.JOBS;
import static dev.tablequeue.binding.ExampleTables.ORDER_JOBS;
import static dev.tablequeue.binding.ExampleTables.PAYOUTS;
import static dev.tablequeue.binding.ExampleTables.REPORT_JOBS;
import static dev.tablequeue.binding.ExampleTables.SUPPORT_TICKETS;
import static dev.tablequeue.binding.ExampleTables.SYNC_JOBS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.util.List;
import java.util.Map;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/** What a binding that keeps every rule accepts, and what it derives from its declaration and jOOQ's metadata. */
class RoleBindingDerivationTest {

    /** The binding of the design's example, as a service declares it. */
    private static final RoleBinding<Record> SEND_EMAIL = RoleBinding.of(EMAIL_JOBS, EMAIL_JOBS.JOB_ID)
            .group(EMAIL_JOBS.NAME)
            .retryAfter(EMAIL_JOBS.RETRY_AFTER)
            .attempt(EMAIL_JOBS.ATTEMPT)
            .processedAt(EMAIL_JOBS.PROCESSED_AT)
            .payload(EMAIL_JOBS.PAYLOAD)
            .build();

    /** order_jobs in row mode, its headers in columns of their own. */
    private static RoleBinding.Builder<Record> orders() {
        return RoleBinding.of(ORDER_JOBS, ORDER_JOBS.JOB_ID)
                .group(ORDER_JOBS.NAME)
                .attempt(ORDER_JOBS.ATTEMPT)
                .headerFields(ORDER_JOBS.TENANT, ORDER_JOBS.TRACE)
                .data(ORDER_JOBS.ORDER_ID, ORDER_JOBS.NOTE, ORDER_JOBS.CREATED_AT, ORDER_JOBS.CHECKSUM,
                        ORDER_JOBS.TENANT_KEY);
    }

    @Test
    void the_design_example_keeps_each_role_on_its_column() {
        assertThat(SEND_EMAIL.table()).isSameAs(EMAIL_JOBS);
        assertThat(SEND_EMAIL.tableName()).isEqualTo("email_jobs");
        assertThat(SEND_EMAIL.id()).isSameAs(EMAIL_JOBS.JOB_ID);
        assertThat(SEND_EMAIL.roles()).containsExactly(
                Map.entry(Role.ID, EMAIL_JOBS.JOB_ID),
                Map.entry(Role.GROUP, EMAIL_JOBS.NAME),
                Map.entry(Role.RETRY_AFTER, EMAIL_JOBS.RETRY_AFTER),
                Map.entry(Role.ATTEMPT, EMAIL_JOBS.ATTEMPT),
                Map.entry(Role.PROCESSED_AT, EMAIL_JOBS.PROCESSED_AT),
                Map.entry(Role.PAYLOAD, EMAIL_JOBS.PAYLOAD));
        assertThat(SEND_EMAIL.column(Role.GROUP)).containsSame(EMAIL_JOBS.NAME);
        assertThat(SEND_EMAIL.has(Role.PRIORITY)).isFalse();
        assertThat(SEND_EMAIL.column(Role.LEASE)).isEmpty();
    }

    @Test
    void a_binding_without_a_form_takes_its_rows_by_row_lock_on_the_host_clock_at_the_database_opening() {
        RoleBinding<Record> binding = RoleBinding.of(JOBS, JOBS.JOB_ID).payload(JOBS.PAYLOAD).build();

        assertThat(binding.form()).isEqualTo(Form.ROW_LOCK);
        assertThat(binding.clock()).isEqualTo(ClockSource.HOST);
        assertThat(binding.opening()).isEmpty();
        assertThat(binding.advisoryKey()).isEmpty();
        assertThat(binding.fifo()).isFalse();
    }

    @Test
    void a_lease_column_selects_the_lease_form() {
        RoleBinding<Record> binding = RoleBinding.of(REPORT_JOBS, REPORT_JOBS.ID)
                .lease(REPORT_JOBS.LOCKED_UNTIL)
                .payload(REPORT_JOBS.PAYLOAD)
                .build();

        assertThat(binding.form()).isEqualTo(Form.LEASE);
        assertThat(binding.column(Role.LEASE)).containsSame(REPORT_JOBS.LOCKED_UNTIL);
        assertThat(binding.clock()).isEqualTo(ClockSource.HOST);
    }

    @Test
    void the_database_clock_is_kept_outside_the_lease_form() {
        assertThat(RoleBinding.of(JOBS, JOBS.JOB_ID).databaseClock().build().clock()).isEqualTo(ClockSource.DATABASE);
    }

    @Test
    void an_isolation_level_or_a_sqlite_mode_is_kept_as_the_opening() {
        assertThat(RoleBinding.of(JOBS, JOBS.JOB_ID).isolation(Isolation.READ_COMMITTED).build().opening())
                .contains(Isolation.READ_COMMITTED);
        assertThat(RoleBinding.of(JOBS, JOBS.JOB_ID).sqliteMode(SqliteMode.IMMEDIATE).build().opening())
                .contains(SqliteMode.IMMEDIATE);
    }

    @Test
    void a_fifo_group_keeps_its_order_and_plays_the_group_role() {
        RoleBinding<Record> binding = RoleBinding.of(SYNC_JOBS, SYNC_JOBS.ID).fifoGroup(SYNC_JOBS.TARGET).build();

        assertThat(binding.fifo()).isTrue();
        assertThat(binding.column(Role.GROUP)).containsSame(SYNC_JOBS.TARGET);
        assertThat(RoleBinding.of(SYNC_JOBS, SYNC_JOBS.ID).group(SYNC_JOBS.TARGET).build().fifo()).isFalse();
    }

    @Test
    void an_advisory_key_template_is_parsed_into_literal_and_column_parts() {
        RoleBinding<Record> binding = RoleBinding.of(JOBS, JOBS.JOB_ID).advisory("jobs-{job_id}").build();

        assertThat(binding.form()).isEqualTo(Form.ADVISORY);
        assertThat(binding.advisoryKey()).containsExactly(KeyPart.literal("jobs-"), KeyPart.column(JOBS.JOB_ID));
    }

    @Test
    void an_advisory_key_may_be_a_column_alone_or_several_columns_between_literals() {
        assertThat(RoleBinding.of(PAYOUTS, PAYOUTS.ID).advisory("{account_id}").build().advisoryKey())
                .containsExactly(KeyPart.column(PAYOUTS.ACCOUNT_ID));
        assertThat(RoleBinding.of(SYNC_JOBS, SYNC_JOBS.ID).advisory("sync:{target}/{id}.").build().advisoryKey())
                .containsExactly(KeyPart.literal("sync:"), KeyPart.column(SYNC_JOBS.TARGET), KeyPart.literal("/"),
                        KeyPart.column(SYNC_JOBS.ID), KeyPart.literal("."));
    }

    @Test
    void an_advisory_key_given_as_parts_is_kept_as_given() {
        RoleBinding<Record> binding = RoleBinding.of(JOBS, JOBS.JOB_ID)
                .advisory(KeyPart.literal("jobs-"), KeyPart.column(JOBS.JOB_ID))
                .build();

        assertThat(binding.form()).isEqualTo(Form.ADVISORY);
        assertThat(binding.advisoryKey()).containsExactly(KeyPart.literal("jobs-"), KeyPart.column(JOBS.JOB_ID));
    }

    @Test
    void a_payload_column_selects_payload_mode_and_its_absence_row_mode() {
        assertThat(SEND_EMAIL.payloadMode()).isTrue();
        assertThat(orders().build().payloadMode()).isFalse();
    }

    @Test
    void a_payload_may_be_bytes_text_or_json() {
        RoleBinding<Record> text =
                RoleBinding.of(IMPORT_JOBS, IMPORT_JOBS.IMPORT_ID).payload(IMPORT_JOBS.PAYLOAD).build();
        RoleBinding<Record> json =
                RoleBinding.of(SUPPORT_TICKETS, SUPPORT_TICKETS.ID).payload(SUPPORT_TICKETS.HEADERS).build();

        assertThat(text.payloadMode()).isTrue();
        assertThat(json.payloadMode()).isTrue();
    }

    @Test
    void identities_defaults_and_computed_columns_are_read_as_generated_from_jooq_metadata() {
        RoleBinding<Record> binding = orders().build();

        assertThat(binding.isGenerated(ORDER_JOBS.JOB_ID)).as("identity").isTrue();
        assertThat(binding.isGenerated(ORDER_JOBS.ATTEMPT)).as("DEFAULT 1").isTrue();
        assertThat(binding.isGenerated(ORDER_JOBS.CREATED_AT)).as("DEFAULT now()").isTrue();
        assertThat(binding.isGenerated(ORDER_JOBS.TENANT_KEY)).as("GENERATED ALWAYS AS").isTrue();
        assertThat(binding.isGenerated(ORDER_JOBS.NAME)).as("NOT NULL, no default").isFalse();
        assertThat(binding.isGenerated(ORDER_JOBS.NOTE)).as("nullable, no default").isFalse();
        assertThat(binding.isGenerated(ORDER_JOBS.CHECKSUM)).as("filled by a trigger jOOQ cannot see").isFalse();
    }

    @Test
    void generated_marks_a_column_the_metadata_does_not_show() {
        RoleBinding<Record> binding = orders().generated(ORDER_JOBS.CHECKSUM).build();

        assertThat(binding.isGenerated(ORDER_JOBS.CHECKSUM)).isTrue();
        assertThat(binding.insertColumns()).doesNotContain(ORDER_JOBS.CHECKSUM);
    }

    @Test
    void an_id_the_database_does_not_fill_is_inserted_first() {
        RoleBinding<Record> binding = RoleBinding.of(IMPORT_JOBS, IMPORT_JOBS.IMPORT_ID)
                .group(IMPORT_JOBS.SOURCE)
                .payload(IMPORT_JOBS.PAYLOAD)
                .build();

        assertThat(binding.isGenerated(IMPORT_JOBS.IMPORT_ID)).isFalse();
        assertThat(binding.insertColumns())
                .containsExactly(IMPORT_JOBS.IMPORT_ID, IMPORT_JOBS.SOURCE, IMPORT_JOBS.PAYLOAD);
    }

    @Test
    void the_insert_writes_the_roles_the_database_does_not_fill_in_role_order_never_processed_at_or_the_lease() {
        var t = SUPPORT_TICKETS;
        RoleBinding<Record> binding = RoleBinding.of(t, t.ID)
                .payload(t.PAYLOAD)
                .headers(t.HEADERS)
                .lease(t.LOCKED_UNTIL)
                .processedAt(t.PROCESSED_AT)
                .attempt(t.ATTEMPT)
                .retryAfter(t.RETRY_AFTER)
                .partitionKey(t.CUSTOMER)
                .priority(t.URGENCY)
                .group(t.QUEUE)
                .build();

        assertThat(binding.insertColumns()).containsExactly(t.QUEUE, t.URGENCY, t.CUSTOMER, t.HEADERS, t.PAYLOAD);
    }

    @Test
    void the_key_order_copy_keeps_every_role_and_only_it_claims_in_key_order() {
        var t = SUPPORT_TICKETS;
        RoleBinding<Record> plain = RoleBinding.of(t, t.ID).group(t.QUEUE).partitionKey(t.CUSTOMER)
                .processedAt(t.PROCESSED_AT).payload(t.PAYLOAD).lease(t.LOCKED_UNTIL).build();

        RoleBinding<Record> keyed = plain.inKeyOrder();

        assertThat(plain.keysInOrder()).isFalse();
        assertThat(keyed.keysInOrder()).isTrue();
        assertThat(keyed.inKeyOrder()).isSameAs(keyed);
        assertThat(keyed.roles()).isEqualTo(plain.roles());
        assertThat(keyed.form()).isEqualTo(plain.form());
        assertThat(keyed.insertColumns()).isEqualTo(plain.insertColumns());
    }

    @Test
    void key_order_is_refused_on_a_table_without_a_partition_key_naming_the_table() {
        assertThatExceptionOfType(dev.tablequeue.BindingException.class)
                .isThrownBy(() -> SEND_EMAIL.inKeyOrder())
                .withMessageContaining("email_jobs")
                .withMessageContaining("partition key");
    }

    @Test
    void the_insert_writes_roles_then_header_fields_then_data_leaving_out_what_the_database_fills() {
        var t = ORDER_JOBS;

        assertThat(orders().build().insertColumns())
                .containsExactly(t.NAME, t.TENANT, t.TRACE, t.ORDER_ID, t.NOTE, t.CHECKSUM);
    }

    @Test
    void the_design_example_inserts_its_group_and_payload() {
        assertThat(SEND_EMAIL.insertColumns()).containsExactly(EMAIL_JOBS.NAME, EMAIL_JOBS.PAYLOAD);
    }

    @Test
    void a_claim_of_whole_rows_reads_every_column_the_jooq_table_declares() {
        assertThat(orders().build().rowColumns()).containsExactly(ORDER_JOBS.fields());
        assertThat(SEND_EMAIL.rowColumns()).containsExactly(EMAIL_JOBS.fields());
    }

    @Test
    void a_table_declared_without_columns_reads_its_roles_header_fields_and_data() {
        Table<Record> loose = DSL.table(DSL.name("loose_jobs"));
        Field<Long> id = DSL.field(DSL.name("id"), Long.class);
        Field<String> queue = DSL.field(DSL.name("queue"), String.class);
        Field<String> tenant = DSL.field(DSL.name("tenant"), String.class);
        Field<String> body = DSL.field(DSL.name("body"), String.class);

        RoleBinding<Record> binding = RoleBinding.of(loose, id)
                .data(body)
                .headerFields(tenant)
                .group(queue)
                .build();

        assertThat(binding.rowColumns()).containsExactly(id, queue, tenant, body);
        assertThat(binding.insertColumns()).containsExactly(id, queue, tenant, body);
    }

    @Test
    void header_fields_and_data_are_kept_in_their_declared_order() {
        RoleBinding<Record> binding = orders().build();

        assertThat(binding.headerFields()).containsExactly(ORDER_JOBS.TENANT, ORDER_JOBS.TRACE);
        assertThat(binding.data()).containsExactly(ORDER_JOBS.ORDER_ID, ORDER_JOBS.NOTE, ORDER_JOBS.CREATED_AT,
                ORDER_JOBS.CHECKSUM, ORDER_JOBS.TENANT_KEY);
    }

    @Test
    void a_built_binding_does_not_change_when_its_builder_goes_on() {
        RoleBinding.Builder<Record> builder = RoleBinding.of(ORDER_JOBS, ORDER_JOBS.JOB_ID).data(ORDER_JOBS.NOTE);
        RoleBinding<Record> binding = builder.build();

        builder.group(ORDER_JOBS.NAME).generated(ORDER_JOBS.NOTE).ownClaim((ctx, group, limit) -> List.of());

        assertThat(binding.has(Role.GROUP)).isFalse();
        assertThat(binding.isGenerated(ORDER_JOBS.NOTE)).isFalse();
        assertThat(binding.own().events()).isEmpty();
        assertThatExceptionOfType(UnsupportedOperationException.class)
                .isThrownBy(() -> binding.roles().put(Role.GROUP, ORDER_JOBS.NAME));
    }
}
