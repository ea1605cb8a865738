package dev.tablequeue.test.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tablequeue.DialectException;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.ClaimShape;
import dev.tablequeue.dialect.QueueClaims;
import dev.tablequeue.dialect.QueueSettlements.Kind;
import dev.tablequeue.internal.Binds;
import java.sql.Connection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jooq.Record;
import org.junit.jupiter.api.Test;

/**
 * What a claim of each form takes and what it leaves: due, unfinished rows of the queue's group in
 * claim order, disjoint rows for two claims at once, a lease token that goes stale, and a FIFO group's
 * one row in work.
 *
 * <p>Part of the dialect contract: what every dialect's statements do on its real server. A dialect proves
 * itself by a small subclass of each part that names its {@link ContractDatabase}; the tests are final, so no
 * subclass drops one. A form or a level the dialect does not serve is asserted to be refused.
 */
public abstract class DialectClaimsContract extends DialectFixture {

    // ---------------------------------------------------------------- claims

    @Test
    public final void a_row_lock_claim_takes_due_unfinished_rows_of_its_group_in_claim_order() throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> b = payloadBinding(t, Form.ROW_LOCK).build();
        if (!dialect.supportsForm(Form.ROW_LOCK)) {
            assertThatThrownBy(() -> dialect.claims(b, ClaimShape.ROLES, false))
                    .isInstanceOf(DialectException.class)
                    .hasMessageContaining(t.getName());
            assertThatThrownBy(() -> dialect.validate(b)).isInstanceOf(DialectException.class);
            return;
        }
        List<Long> expected = claimOrderFixture(t);
        try (Connection c = db.connect()) {
            begin(c, b);
            List<Map<String, Object>> rows = claim(c, b, ClaimShape.ROLES, 10);
            assertThat(ids(rows)).containsExactlyElementsOf(expected);
            assertThat(rows).allSatisfy(r -> assertThat(number(r, "attempt")).isEqualTo(1L));
            commit(c, b);
        }
    }

    @Test
    public final void a_lease_claim_takes_the_first_claimable_rows_in_claim_order_stamps_them_and_reports_the_attempt_as_it_was()
            throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> b = payloadBinding(t, Form.LEASE).lease(t.LOCKED_UNTIL).build();
        List<Long> expected = claimOrderFixture(t);
        // a row leased to someone else until later is not claimable; one whose lease passed is
        long leased = insert(t, r -> r.group("a").locked(now.plusSeconds(60)));
        long expired = insert(t, r -> r.group("a").priority(9).locked(now.minusSeconds(60)));
        List<Long> claimable = new ArrayList<>(expected);
        claimable.add(expired);
        Instant until = now.plusSeconds(30);
        List<Map<String, Object>> rows;
        try (Connection c = db.connect()) {
            rows = leaseClaim(c, b, ClaimShape.ROLES, 3, until);
        }
        // the claim takes the first three, and returns them in claim order (not in id order)
        assertThat(ids(rows)).containsExactlyElementsOf(claimable.subList(0, 3));
        assertThat(rows).allSatisfy(r -> assertThat(number(r, "attempt")).isEqualTo(1L));
        for (Long id : ids(rows)) {
            Map<String, Object> stored = stored(t, id);
            assertThat(number(stored, "attempt")).isEqualTo(2L);
            assertThat(instant(stored.get("locked_until"))).isEqualTo(until);
        }
        try (Connection c = db.connect()) {
            List<Map<String, Object>> rest = leaseClaim(c, b, ClaimShape.IDS, 10, until);
            assertThat(ids(rest)).containsExactlyElementsOf(claimable.subList(3, claimable.size()));
        }
        assertThat(instant(stored(t, leased).get("locked_until"))).isEqualTo(now.plusSeconds(60));
    }

    @Test
    public final void two_concurrent_claims_take_disjoint_rows() throws Exception {
        for (Form form : new Form[] {Form.ROW_LOCK, Form.LEASE}) {
            if (!dialect.supportsForm(form)) {
                continue;
            }
            Jobs t = newTable();
            RoleBinding.Builder<Record> builder = payloadBinding(t, form);
            RoleBinding<Record> b = form == Form.LEASE ? builder.lease(t.LOCKED_UNTIL).build() : builder.build();
            for (int i = 0; i < 8; i++) {
                insert(t, r -> r.group("a"));
            }
            try (Connection first = db.connect(); Connection second = db.connect()) {
                List<Long> a;
                List<Long> bIds;
                if (form == Form.ROW_LOCK) {
                    begin(first, b);
                    a = ids(claim(first, b, ClaimShape.IDS, 3));
                    begin(second, b);
                    bIds = ids(claim(second, b, ClaimShape.IDS, 3));
                    commit(second, b);
                    commit(first, b);
                } else {
                    a = ids(leaseClaim(first, b, ClaimShape.IDS, 3, now.plusSeconds(30)));
                    bIds = ids(leaseClaim(second, b, ClaimShape.IDS, 3, now.plusSeconds(30)));
                }
                assertThat(a).hasSize(3);
                assertThat(bIds).hasSize(3).doesNotContainAnyElementsOf(a);
            }
        }
    }

    /** A table that declares its own extension has its lease moved by it, and the dialect's statement is not run. */
    @Test
    public final void a_lease_is_extended_by_the_services_own_extension_where_the_table_declares_one()
            throws Exception {
        Jobs t = newTable();
        List<Object> asked = new java.util.concurrent.CopyOnWriteArrayList<>();
        RoleBinding<Record> b = payloadBinding(t, Form.LEASE).lease(t.LOCKED_UNTIL)
                .ownExtend((ctx, rowId, held, until) -> {
                    asked.add(rowId);
                    // the service's own rule: it moves the lease and notes the row in its group column
                    @SuppressWarnings("unchecked")
                    org.jooq.Field<Object> lease = (org.jooq.Field<Object>) (org.jooq.Field<?>) t.LOCKED_UNTIL;
                    return ctx.update(t).set(lease, dialect.timeValue(t.LOCKED_UNTIL, until)).set(t.GRP, "extended")
                            .where(t.ID.eq(((Number) rowId).longValue())).execute() == 1;
                }).build();
        long id = insert(t, r -> r.group("a"));
        Instant until = now.plusSeconds(30);
        try (Connection c = db.connect()) {
            assertThat(ids(leaseClaim(c, b, ClaimShape.IDS, 1, until))).containsExactly(id);
            assertThat(dialect.claims(b, ClaimShape.IDS, false).extendLease(c, id, until, until.plusSeconds(30)))
                    .isTrue();
        }
        assertThat(asked).containsExactly(id);
        Map<String, Object> row = stored(t, id);
        assertThat(row.get("grp")).isEqualTo("extended");
        assertThat(instant(row.get("locked_until"))).isEqualTo(until.plusSeconds(30));
    }

    @Test
    public final void a_settlement_with_a_stale_lease_token_changes_nothing() throws Exception {
        Jobs t = newTable();
        RoleBinding<Record> b = payloadBinding(t, Form.LEASE).lease(t.LOCKED_UNTIL).build();
        long id = insert(t, r -> r.group("a"));
        Instant until = now.plusSeconds(30);
        try (Connection c = db.connect()) {
            assertThat(ids(leaseClaim(c, b, ClaimShape.IDS, 1, until))).containsExactly(id);
            Instant stale = until.minusSeconds(5);
            Binds binds = new Binds().id(id).now(now).leaseHeld(stale).retryAt(now.plusSeconds(60))
                    .destination("dead").group("a");
            for (Kind kind : List.of(Kind.ACK, Kind.DROP, Kind.RETRY, Kind.RETRY_AFTER, Kind.DEAD_LETTER_TO_GROUP)) {
                assertThat(settle(c, b, kind, binds)).as("the %s of a stale token", kind).isPresent();
            }
            QueueClaims claims = dialect.claims(b, ClaimShape.IDS, false);
            assertThat(claims.extendLease(c, id, stale, until.plusSeconds(30))).isFalse();
            Map<String, Object> row = stored(t, id);
            assertThat(row.get("processed_at")).isNull();
            assertThat(row.get("grp")).isEqualTo("a");
            assertThat(instant(row.get("locked_until"))).isEqualTo(until);

            assertThat(claims.extendLease(c, id, until, until.plusSeconds(30))).isTrue();
            assertThat(instant(stored(t, id).get("locked_until"))).isEqualTo(until.plusSeconds(30));
            binds.leaseHeld(until.plusSeconds(30));
            assertThat(settle(c, b, Kind.ACK, binds)).isEmpty();
            assertThat(instant(stored(t, id).get("processed_at"))).isEqualTo(now);
        }
    }

    // ---------------------------------------------------------------- FIFO groups

    @Test
    public final void a_fifo_group_has_one_row_in_work_at_a_time_in_claim_order() throws Exception {
        for (Form form : new Form[] {Form.ROW_LOCK, Form.LEASE}) {
            Jobs t = newTable();
            RoleBinding.Builder<Record> builder = RoleBinding.of(t, t.ID)
                    .fifoGroup(t.GRP)
                    .priority(t.PRIORITY)
                    .retryAfter(t.RETRY_AFTER)
                    .attempt(t.ATTEMPT)
                    .processedAt(t.PROCESSED_AT)
                    .payload(t.PAYLOAD);
            RoleBinding<Record> b = form == Form.LEASE ? builder.lease(t.LOCKED_UNTIL).build() : builder.build();
            if (!dialect.supportsForm(form)) {
                assertThatThrownBy(() -> dialect.validate(b)).isInstanceOf(DialectException.class);
                continue;
            }
            long head = insert(t, r -> r.group("crm").priority(1));
            long next = insert(t, r -> r.group("crm").priority(1));
            long elsewhere = insert(t, r -> r.group("erp").priority(5));
            Instant until = now.plusSeconds(30);
            try (Connection first = db.connect(); Connection second = db.connect()) {
                if (form == Form.ROW_LOCK) {
                    begin(first, b);
                    assertThat(ids(claim(first, b, ClaimShape.IDS, 5, "crm"))).containsExactly(head);
                    begin(second, b);
                    assertThat(claim(second, b, ClaimShape.IDS, 5, "crm")).isEmpty();
                    assertThat(ids(claim(second, b, ClaimShape.IDS, 5, "erp"))).containsExactly(elsewhere);
                    commit(second, b);
                    assertThat(settle(first, b, Kind.ACK, new Binds().id(head).now(now))).isEmpty();
                    commit(first, b);
                    begin(second, b);
                    assertThat(ids(claim(second, b, ClaimShape.IDS, 5, "crm"))).containsExactly(next);
                    commit(second, b);
                } else {
                    assertThat(ids(leaseClaim(first, b, ClaimShape.IDS, 5, until, "crm"))).containsExactly(head);
                    assertThat(leaseClaim(second, b, ClaimShape.IDS, 5, until, "crm")).isEmpty();
                    // a delayed retry moves the head behind the rows due before it
                    assertThat(settle(first, b, Kind.RETRY_AFTER,
                            new Binds().id(head).leaseHeld(until).retryAt(now.plusSeconds(600)))).isEmpty();
                    assertThat(ids(leaseClaim(second, b, ClaimShape.IDS, 5, until, "crm"))).containsExactly(next);
                    assertThat(leaseClaim(first, b, ClaimShape.IDS, 5, until, "crm")).isEmpty();
                    // a row that comes in ahead of the row in work becomes the head, and waits for it
                    long ahead = insert(t, r -> r.group("crm").priority(0));
                    assertThat(leaseClaim(first, b, ClaimShape.IDS, 5, until, "crm")).isEmpty();
                    assertThat(settle(second, b, Kind.ACK, new Binds().id(next).now(now).leaseHeld(until)))
                            .isEmpty();
                    assertThat(ids(leaseClaim(first, b, ClaimShape.IDS, 5, until, "crm"))).containsExactly(ahead);
                }
            }
        }
    }

    /**
     * Rows of group "a" and "b", some claimable and some not; returns the claimable ones of "a" in claim
     * order (priority, then retry_after, then id).
     */
    private List<Long> claimOrderFixture(Jobs t) {
        long late = insert(t, r -> r.group("a").priority(5).due(now.minusSeconds(10)));
        long urgent = insert(t, r -> r.group("a").priority(1).due(now.minusSeconds(5)));
        long earlier = insert(t, r -> r.group("a").priority(5).due(now.minusSeconds(20)));
        long sameTimeHigherId = insert(t, r -> r.group("a").priority(5).due(now.minusSeconds(10)));
        insert(t, r -> r.group("a").priority(0).due(now.plusSeconds(60)));
        insert(t, r -> r.group("a").priority(0).due(now.minusSeconds(60)).processed(now.minusSeconds(30)));
        insert(t, r -> r.group("b").priority(0).due(now.minusSeconds(60)));
        return List.of(urgent, earlier, late, sameTimeHigherId);
    }
}
