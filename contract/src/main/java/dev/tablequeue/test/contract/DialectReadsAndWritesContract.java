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
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jooq.Record;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * The rows of a claim read in each shape, the insert a publish runs, and the transaction openings:
 * each the dialect takes runs a claim, every other is refused.
 *
 * <p>Part of the dialect contract: what every dialect's statements do on its real server. A dialect proves
 * itself by a small subclass of each part that names its {@link ContractDatabase}; the tests are final, so no
 * subclass drops one. A form or a level the dialect does not serve is asserted to be refused.
 */
public abstract class DialectReadsAndWritesContract extends DialectFixture {

    // ---------------------------------------------------------------- reads and writes

    @Test
    public final void the_rows_of_an_own_claim_are_read_in_each_shape() throws Exception {
        Jobs t = newTable();
        long one = insert(t, r -> r.group("a").key("k").headers("{}").payload(new byte[] {7}).attempt(3));
        long two = insert(t, r -> r.group("a").note("n"));
        try (Connection c = db.connect()) {
            if (dialect.supportsForm(Form.ROW_LOCK)) {
                // the row lock form reads the row the service's claim locked (one a claim), its attempt as it is
                RoleBinding<Record> locked = ownClaim(t, Form.ROW_LOCK);
                begin(c, locked);
                List<Map<String, Object>> roles = claim(c, locked, ClaimShape.ROLES, 2);
                assertThat(roles).singleElement().satisfies(first -> {
                    assertThat(first.keySet()).containsExactlyInAnyOrder("id", "partition_key", "attempt",
                            "headers", "payload");
                    assertThat(number(first, "id")).isEqualTo(one);
                    assertThat(first.get("partition_key")).isEqualTo("k");
                    assertThat((byte[]) first.get("payload")).containsExactly(7);
                    assertThat(number(first, "attempt")).isEqualTo(3L);
                });
                commit(c, locked);
            }
            // the lease form stamps the row the service's claim chose, then reads it as its claim found it
            RoleBinding<Record> leased = ownClaim(t, Form.LEASE);
            Map<String, Object> first = leaseClaim(c, leased, ClaimShape.ROWS, 2, now.plusSeconds(60)).get(0);
            Map<String, Object> second = leaseClaim(c, leased, ClaimShape.ROWS, 2, now.plusSeconds(60)).get(0);
            assertThat(number(first, "id")).isEqualTo(one);
            assertThat(number(first, "attempt")).isEqualTo(3L);
            assertThat(number(second, "id")).isEqualTo(two);
            assertThat(second.get("note")).isEqualTo("n");
            assertThat(second.keySet()).hasSize(t.fields().length);
            assertThat(number(byId(rows(t), one), "attempt")).isEqualTo(4L);
        }
        Jobs u = newTable();
        long three = insert(u, r -> r.group("a"));
        try (Connection c = db.connect()) {
            List<Map<String, Object>> idsOnly = leaseClaim(c, ownClaim(u, Form.LEASE), ClaimShape.IDS, 1,
                    now.plusSeconds(60));
            assertThat(idsOnly).singleElement().satisfies(row -> {
                assertThat(row.keySet()).containsExactly("id");
                assertThat(number(row, "id")).isEqualTo(three);
            });
        }
    }

    /** A binding of {@code t} in {@code form} whose claim is the service's own: its group's rows, by id. */
    private static RoleBinding<Record> ownClaim(Jobs t, Form form) {
        RoleBinding.Builder<Record> b = RoleBinding.of(t, t.ID)
                .group(t.GRP)
                .partitionKey(t.PARTITION_KEY)
                .attempt(t.ATTEMPT)
                .headers(t.HEADERS)
                .payload(t.PAYLOAD)
                .ownClaim((ctx, group, limit) -> {
                    var select = ctx.select(t.ID).from(t).where(t.GRP.eq(group))
                            .and(form == Form.LEASE ? t.LOCKED_UNTIL.isNull() : DSL.noCondition())
                            .orderBy(t.ID).limit(limit);
                    return form == Form.ROW_LOCK ? select.forUpdate().skipLocked().fetch(t.ID) : select.fetch(t.ID);
                });
        return (form == Form.LEASE ? b.lease(t.LOCKED_UNTIL) : b).build();
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
