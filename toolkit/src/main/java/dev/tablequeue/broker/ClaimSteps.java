package dev.tablequeue.broker;

import dev.tablequeue.binding.Event;
import dev.tablequeue.binding.Form;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.dialect.TransactionOpening;
import dev.tablequeue.internal.Jdbc;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.jooq.Record;
import org.jooq.impl.DSL;

/**
 * The steps a claim runs on its connection, shared by every form: the FIFO guard, the claim (the dialect's
 * or the service's own), the lease stamp, the advisory candidates and take, and the fetch of a row by id.
 * Which steps run, in which transaction, is the claimer's.
 */
final class ClaimSteps {
    /** An advisory candidate: a row's id and its key. */
    record Candidate(Object id, String key) {}

    private final SubscriptionContext ctx;

    ClaimSteps(SubscriptionContext ctx) {
        this.ctx = ctx;
    }

    /** How many rows one claim may take for {@code free} workers: one where order or the service's claim needs it. */
    int limit(int free) {
        return ctx.binding.fifo() || ctx.binding.owns(Event.CLAIM) ? 1 : free;
    }

    /**
     * Whether a lease claim is one statement that leases its rows itself: auto-commit then makes it atomic
     * without a transaction.
     */
    boolean leasesInOneStatement() {
        return ctx.statements.guard().isEmpty() && ctx.statements.stamp().isEmpty()
                && !ctx.binding.owns(Event.CLAIM) && ctx.statements.opening().equals(TransactionOpening.DEFAULT);
    }

    /** Runs the FIFO guard (where there is one) and the claim of up to {@code limit} rows, in the open transaction. */
    List<ClaimedRow> claim(Connection c, Instant now, Instant until, int limit) throws Exception {
        Binds binds = new Binds().group(ctx.queue.group()).now(now).limit(limit).leaseUntil(until);
        if (ctx.statements.guard().isPresent()) {
            var guard = ctx.statements.guard().get();
            if (guard.answers()) {
                if (!Jdbc.query(c, guard.statement(), binds, ctx.dialect, Jdbc::firstBoolean)) {
                    return List.of();
                }
            } else {
                Jdbc.query(c, guard.statement(), binds, ctx.dialect, rs -> null);
            }
        }
        if (ctx.binding.owns(Event.CLAIM)) {
            return ownClaim(c, until);
        }
        return Jdbc.query(c, ctx.statements.claim(), binds, ctx.dialect, ctx.reader::readAll);
    }

    /**
     * Stamps the lease of rows the dialect's claim selected without stamping them (an own claim was stamped
     * before its fetch).
     */
    void stamp(Connection c, List<ClaimedRow> rows, Instant until) throws SQLException {
        if (rows.isEmpty() || ctx.statements.stamp().isEmpty() || ctx.binding.owns(Event.CLAIM)) {
            return;
        }
        List<Binds> stamps = new ArrayList<>(rows.size());
        for (ClaimedRow row : rows) {
            stamps.add(new Binds().ids(List.of(row.id())).leaseUntil(until));
        }
        Jdbc.updateEach(c, ctx.statements.stamp().get(), stamps, ctx.dialect);
    }

    /**
     * The service's own claim: it returns the ids it took (and locked, in the row lock form); in the lease
     * form the dialect stamps them; then the service's own fetch, or the dialect's, reads them.
     */
    private List<ClaimedRow> ownClaim(Connection c, Instant until) throws Exception {
        List<?> ids = ctx.binding.own().claim()
                .claim(DSL.using(c, ctx.dialect.sqlDialect()), ctx.queue.group(), 1);
        if (ids == null || ids.isEmpty()) {
            return List.of();
        }
        Object id = ids.get(0);
        if (ctx.statements.stamp().isPresent()) {
            Jdbc.update(c, ctx.statements.stamp().get(), new Binds().ids(List.of(id)).leaseUntil(until), ctx.dialect);
        }
        return fetch(c, id);
    }

    /**
     * The advisory candidates, in claim order, up to {@code limit}: id and key of due rows, keys held elsewhere
     * left out where the database can see them.
     */
    List<Candidate> candidates(Connection c, int limit) throws SQLException {
        Binds binds = new Binds().group(ctx.queue.group()).now(ctx.now()).limit(limit);
        return Jdbc.query(c, ctx.statements.claim(), binds, ctx.dialect, rs -> {
            List<Candidate> list = new ArrayList<>();
            while (rs.next()) {
                list.add(new Candidate(rs.getObject(1), rs.getString(2)));
            }
            return list;
        });
    }

    /** Takes a candidate's row, whose key the connection holds, while it is still claimable; empty where it is not. */
    List<ClaimedRow> take(Connection c, Object id) throws Exception {
        Binds binds = new Binds().id(id).group(ctx.queue.group()).now(ctx.now());
        Statement take = ctx.statements.take().orElseThrow();
        if (ctx.statements.fetchOne().isEmpty()) {
            return Jdbc.query(c, take, binds, ctx.dialect, ctx.reader::readAll);
        }
        if (Jdbc.update(c, take, binds, ctx.dialect) == 0) {
            return List.of();
        }
        return fetch(c, id);
    }

    /** Reads one claimed row by id: the service's own fetch, or the dialect's; an id without a row fails to decode. */
    List<ClaimedRow> fetch(Connection c, Object id) throws Exception {
        List<ClaimedRow> rows;
        if (ctx.binding.owns(Event.FETCH)) {
            var fetched = ctx.binding.own().fetch()
                    .fetch(DSL.using(c, ctx.dialect.sqlDialect()), List.of(id));
            rows = new ArrayList<>();
            for (Record r : fetched) {
                rows.add(ctx.reader.fromRecord(r, ctx.binding.form() != Form.ROW_LOCK));
            }
        } else {
            rows = Jdbc.query(c, ctx.statements.fetchOne().orElseThrow(), new Binds().ids(List.of(id)), ctx.dialect,
                    ctx.reader::readAll);
        }
        if (rows.isEmpty()) {
            return List.of(new ClaimedRow(id, OptionalInt.empty(), null, Map.of(), null, null,
                    new IllegalStateException("claimed id " + id + " of table \"" + ctx.binding.tableName()
                            + "\" has no row in the fetch")));
        }
        return rows;
    }
}
