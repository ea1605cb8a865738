package dev.tablequeue.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.binding.ClockSource;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.KeyPart;
import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.jooq.Index;
import org.jooq.SortField;
import org.junit.jupiter.api.Test;

/**
 * What the example bindings declare: one {@code ExampleQueues}, over the one set of generated classes, for
 * every database. Bindings are read by constant name and compared by column name.
 */
class ExampleQueuesTest {

    /** The class under test. */
    private static Class<?> queues() {
        return ExampleQueues.class;
    }

    @Test
    void every_binding_constant_initialises() throws ReflectiveOperationException {
        List<String> names = new ArrayList<>();
        for (Field f : queues().getFields()) {
            if (f.getType() == RoleBinding.class && Modifier.isStatic(f.getModifiers())) {
                assertThat(f.get(null)).as(f.getName()).isNotNull();
                names.add(f.getName());
            }
        }
        assertThat(names).containsExactlyInAnyOrder("SEND_EMAIL", "TICKETS", "SEND_INVOICE", "RENDER_REPORT",
                "TRANSCODE", "PAYOUT", "OPEN_ACCOUNT", "SEND_WELCOME", "SYNC_CHANGE", "MAKE_THUMBNAIL", "ORDER_JOB",
                "DEMO_JOB");
    }

    @Test
    void send_email_is_a_row_lock_queue_grouped_by_name_that_marks_what_it_acknowledges() {
        RoleBinding<?> b = binding("SEND_EMAIL");
        assertThat(roles(b)).containsExactly(
                Map.entry(Role.ID, "job_id"), Map.entry(Role.GROUP, "name"),
                Map.entry(Role.RETRY_AFTER, "retry_after"), Map.entry(Role.ATTEMPT, "attempt"),
                Map.entry(Role.PROCESSED_AT, "processed_at"), Map.entry(Role.PAYLOAD, "payload"),
                Map.entry(Role.LAST_ERROR, "last_error"));
        assertThat(b.form()).isEqualTo(Form.ROW_LOCK);
        assertThat(b.payloadMode()).isTrue();
        assertThat(b.clock()).isEqualTo(ClockSource.HOST);
        assertThat(b.isGenerated(b.id())).as("job_id is filled by the database").isTrue();
    }

    @Test
    void a_publish_to_send_email_writes_the_name_and_the_payload_and_leaves_the_rest_to_the_database() {
        assertInsertColumns(binding("SEND_EMAIL"), "name", "payload");
    }

    @Test
    void tickets_take_the_most_urgent_first_and_carry_the_customer_as_partition_key() {
        RoleBinding<?> b = binding("TICKETS");
        assertThat(roles(b)).containsEntry(Role.GROUP, "queue")
                .containsEntry(Role.PRIORITY, "urgency")
                .containsEntry(Role.PARTITION_KEY, "customer");
        assertThat(names(b.insertColumns())).containsExactly("queue", "urgency", "customer", "payload");
    }

    @Test
    void send_invoice_reads_the_database_clock() {
        RoleBinding<?> b = binding("SEND_INVOICE");
        assertThat(b.clock()).isEqualTo(ClockSource.DATABASE);
        assertThat(b.has(Role.ATTEMPT)).isFalse();
        assertThat(b.form()).isEqualTo(Form.ROW_LOCK);
    }

    @Test
    void render_report_and_make_thumbnail_hold_their_rows_by_lease() {
        for (String name : List.of("RENDER_REPORT", "MAKE_THUMBNAIL")) {
            RoleBinding<?> b = binding(name);
            assertThat(b.form()).as(name).isEqualTo(Form.LEASE);
            assertThat(roles(b)).as(name).containsEntry(Role.LEASE, "locked_until");
            assertThat(b.clock()).as(name).isEqualTo(ClockSource.HOST);
            assertThat(names(b.insertColumns())).as(name + " never writes a lease on insert").containsExactly("payload");
        }
    }

    @Test
    void demo_job_holds_its_rows_by_lease_and_retries_later_and_dead_letters_within_its_table() {
        RoleBinding<?> b = binding("DEMO_JOB");
        assertThat(roles(b)).containsExactly(
                Map.entry(Role.ID, "id"), Map.entry(Role.GROUP, "name"),
                Map.entry(Role.RETRY_AFTER, "retry_after"), Map.entry(Role.ATTEMPT, "attempt"),
                Map.entry(Role.PROCESSED_AT, "processed_at"), Map.entry(Role.LEASE, "locked_until"),
                Map.entry(Role.PAYLOAD, "payload"));
        assertThat(b.form()).isEqualTo(Form.LEASE);
        assertThat(b.clock()).isEqualTo(ClockSource.HOST);
        assertInsertColumns(b, "name", "payload");
    }

    @Test
    void transcode_locks_each_row_on_a_key_named_after_its_table() {
        RoleBinding<?> b = binding("TRANSCODE");
        assertThat(b.form()).isEqualTo(Form.ADVISORY);
        assertThat(key(b)).containsExactly("jobs-", "{job_id}");
    }

    @Test
    void payout_locks_on_the_account_so_an_accounts_payouts_run_one_at_a_time() {
        RoleBinding<?> b = binding("PAYOUT");
        assertThat(b.form()).isEqualTo(Form.ADVISORY);
        assertThat(key(b)).containsExactly("payouts-", "{account_id}");
        assertThat(b.has(Role.ATTEMPT)).isFalse();
        // the lock key's account is written by the insert beside the payload
        assertInsertColumns(b, "payload", "account_id");
    }

    @Test
    void open_account_and_send_welcome_are_whole_table_queues() {
        assertThat(roles(binding("OPEN_ACCOUNT")).keySet()).containsExactly(Role.ID, Role.ATTEMPT, Role.PAYLOAD);
        assertThat(roles(binding("SEND_WELCOME")).keySet()).containsExactly(Role.ID, Role.PAYLOAD);
    }

    @Test
    void sync_change_keeps_each_targets_changes_in_order() {
        RoleBinding<?> b = binding("SYNC_CHANGE");
        assertThat(b.fifo()).isTrue();
        assertThat(roles(b)).containsEntry(Role.GROUP, "target");
        assertThat(b.form()).isEqualTo(Form.ROW_LOCK);
    }

    @Test
    void order_job_delivers_rows_with_headers_in_columns_and_a_note_as_data() {
        RoleBinding<?> b = binding("ORDER_JOB");
        assertThat(b.payloadMode()).isFalse();
        assertThat(names(b.headerFields())).containsExactly("tenant", "trace", "order_id");
        assertThat(names(b.data())).containsExactly("note");
        assertThat(b.has(Role.HEADERS)).isFalse();
    }

    @Test
    void a_publish_to_order_job_writes_the_group_the_header_fields_and_the_data() {
        assertInsertColumns(binding("ORDER_JOB"), "name", "tenant", "trace", "order_id", "note");
    }

    @Test
    void every_queue_claimed_by_more_than_its_id_has_an_index_in_claim_order() throws ReflectiveOperationException {
        for (Field f : queues().getFields()) {
            RoleBinding<?> b = (RoleBinding<?>) f.get(null);
            List<String> order = new ArrayList<>();
            for (Role role : List.of(Role.GROUP, Role.PRIORITY, Role.RETRY_AFTER, Role.ID)) {
                b.column(role).ifPresent(c -> order.add(c.getName()));
            }
            if (order.size() == 1) {
                continue; // the primary key serves a claim in id order
            }
            List<List<String>> indexes = new ArrayList<>();
            for (Index index : b.table().getIndexes()) {
                // An index may carry processed_at too (demo_jobs puts it after the group): a claim reads it only
                // as IS NULL, an equality, which leaves the rest in claim order and skips acknowledged rows.
                indexes.add(index.getFields().stream()
                        .map(SortField::getName)
                        .filter(name -> !b.column(Role.PROCESSED_AT).map(p -> p.getName().equals(name)).orElse(false))
                        .toList());
            }
            assertThat(indexes).as(f.getName() + " on " + b.tableName()).contains(order);
        }
    }

    /** The binding constant {@code name} of the class under test. */
    protected final RoleBinding<?> binding(String name) {
        try {
            return (RoleBinding<?>) queues().getField(name).get(null);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(queues().getName() + " has no binding " + name, e);
        }
    }

    private static void assertInsertColumns(RoleBinding<?> b, String... expected) {
        assertThat(names(b.insertColumns())).containsExactly(expected);
    }

    private static Map<Role, String> roles(RoleBinding<?> b) {
        Map<Role, String> roles = new EnumMap<>(Role.class);
        b.roles().forEach((role, column) -> roles.put(role, column.getName()));
        return roles;
    }

    private static List<String> names(List<? extends org.jooq.Field<?>> columns) {
        return columns.stream().map(org.jooq.Field::getName).toList();
    }

    /** The advisory key as text: literals as they are, columns as {@code {name}}. */
    private static List<String> key(RoleBinding<?> b) {
        return b.advisoryKey().stream()
                .map(p -> switch (p) {
                    case KeyPart.Literal l -> l.text();
                    case KeyPart.Column c -> "{" + c.field().getName() + "}";
                })
                .toList();
    }
}
