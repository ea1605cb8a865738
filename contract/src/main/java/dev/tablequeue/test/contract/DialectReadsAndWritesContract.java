package dev.tablequeue.test.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tablequeue.DialectException;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.Isolation;
import dev.tablequeue.binding.Opening;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.binding.SqliteMode;
import dev.tablequeue.dialect.ClaimShape;
import dev.tablequeue.dialect.QueueInserts;
import dev.tablequeue.internal.Binds;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jooq.Record;
import org.junit.jupiter.api.Test;

/**
 * The fetch of claimed rows in each shape, the insert a publish runs, and the transaction openings:
 * each the dialect takes runs a claim, every other is refused.
 *
 * <p>Part of the dialect contract: what every dialect's statements do on its real server. A dialect proves
 * itself by a small subclass of each part that names its {@link ContractDatabase}; the tests are final, so no
 * subclass drops one. A form or a level the dialect does not serve is asserted to be refused.
 */
public abstract class DialectReadsAndWritesContract extends DialectFixture {

    // ---------------------------------------------------------------- reads and writes

    @Test
    public final void fetch_by_ids_reads_each_shape() throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> b = RoleBinding.of(t, t.ID)
                .group(t.GRP)
                .partitionKey(t.PARTITION_KEY)
                .attempt(t.ATTEMPT)
                .headers(t.HEADERS)
                .payload(t.PAYLOAD)
                .lease(t.LOCKED_UNTIL)
                .build();
        long one = insert(t, r -> r.group("a").key("k").headers("{}").payload(new byte[] {7}).attempt(3));
        long two = insert(t, r -> r.group("a").note("n"));
        try (Connection c = db.connect()) {
            Binds binds = new Binds().ids(List.of(one, two));
            List<Map<String, Object>> roles = query(c, dialect.fetchByIds(b, ClaimShape.ROLES, 2, false), binds);
            Map<String, Object> first = byId(roles, one);
            assertThat(first.keySet()).containsExactlyInAnyOrder("id", "partition_key", "attempt", "headers",
                    "payload");
            assertThat(first.get("partition_key")).isEqualTo("k");
            assertThat((byte[]) first.get("payload")).containsExactly(7);
            assertThat(number(first, "attempt")).isEqualTo(3L);
            List<Map<String, Object>> stamped = query(c, dialect.fetchByIds(b, ClaimShape.ROWS, 2, true), binds);
            assertThat(number(byId(stamped, one), "attempt")).isEqualTo(2L);
            assertThat(byId(stamped, two).get("note")).isEqualTo("n");
            assertThat(byId(stamped, two).keySet()).hasSize(t.fields().length);
            List<Map<String, Object>> idsOnly = query(c, dialect.fetchByIds(b, ClaimShape.IDS, 1, false),
                    new Binds().ids(List.of(two)));
            assertThat(idsOnly).hasSize(1);
            assertThat(idsOnly.get(0).keySet()).containsExactly("id");
            assertThat(number(idsOnly.get(0), "id")).isEqualTo(two);
        }
    }

    @Test
    public final void the_insert_writes_the_binding_columns_and_leaves_generated_ones_to_the_database()
            throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> b = payloadBinding(t, Form.LEASE).lease(t.LOCKED_UNTIL).partitionKey(t.PARTITION_KEY)
                .build();
        QueueInserts inserts = dialect.inserts(b);
        assertThat(inserts.statements().get(0)).isSameAs(inserts.insert());
        List<String> columns = b.insertColumns().stream().map(f -> f.getName()).toList();
        assertThat(columns).containsExactly("grp", "partition_key", "payload");
        List<QueueInserts.Written> written;
        try (Connection c = db.connect()) {
            written = inserts.write(c, List.of(List.of("emails", "k", new byte[] {9}),
                    List.of("sms", "j", new byte[] {8})));
        }
        assertThat(written).allMatch(QueueInserts.Written::inserted);
        List<Object> ids = written.stream().map(QueueInserts.Written::id).toList();
        List<Map<String, Object>> rows = rows(t);
        assertThat(rows).hasSize(2);
        // the ids the database generated, in the rows' order, in the id column's Java type
        assertThat(ids).containsExactly(number(rows.get(0), "id"), number(rows.get(1), "id"));
        assertThat(rows.get(1).get("grp")).isEqualTo("sms");
        Map<String, Object> row = rows.get(0);
        assertThat(row.get("grp")).isEqualTo("emails");
        assertThat(number(row, "attempt")).isEqualTo(1L);
        assertThat(number(row, "priority")).isZero();
        assertThat(row.get("retry_after")).isNotNull();
        assertThat(row.get("locked_until")).isNull();
    }

    // ---------------------------------------------------------------- transactions

    @Test
    public final void every_opening_the_dialect_takes_runs_a_claim_and_the_others_are_refused() throws Exception {
        List<Opening> openings = new ArrayList<>(List.of(Isolation.values()));
        openings.addAll(List.of(SqliteMode.values()));
        int opened = 0;
        for (Opening opening : openings) {
            Jobs t = newTable();
            RoleBinding.Builder<Record> builder = payloadBinding(t, Form.LEASE).lease(t.LOCKED_UNTIL);
            RoleBinding<Record> b = opening instanceof Isolation level
                    ? builder.isolation(level).build()
                    : builder.sqliteMode((SqliteMode) opening).build();
            try {
                dialect.validate(b);
            } catch (DialectException refused) {
                assertThat(refused).hasMessageContaining(t.getName());
                assertThatThrownBy(() -> dialect.transactionOpening(b)).isInstanceOf(DialectException.class);
                continue;
            }
            long id = insert(t, r -> r.group("a"));
            try (Connection c = db.connect()) {
                assertThat(ids(leaseClaim(c, b, ClaimShape.IDS, 1, now.plusSeconds(30)))).containsExactly(id);
            }
            opened++;
        }
        assertThat(opened).as("openings taken by " + dialect.name()).isPositive();
    }
}
