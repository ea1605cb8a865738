package dev.tablequeue.broker;

import dev.tablequeue.TableQueueException;
import dev.tablequeue.dialect.AdminStatements;
import dev.tablequeue.dialect.TransactionOpening;
import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.Transactions;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jooq.Table;

/**
 * A redrive's two ways ({@link QueueAdmin#redrive}): dead letters of a group moved back by one update per batch of
 * ids, and rows of a dead-letter table copied back and deleted in one transaction per batch, by the ids it locked.
 */
final class Redriving {
    private final AdminConnection admin;

    Redriving(AdminConnection admin) {
        this.admin = admin;
    }

    long group(Connection c, AdminStatements statements, InboxQueue<?> queue, String dead,
            List<Object> ids, Instant now, Instant cutoff) throws SQLException {
        Binds binds = new Binds().group(dead).destination(queue.group()).now(now).retryAt(cutoff);
        if (ids.isEmpty()) {
            return admin.update(c, statements.redriveGroup(0, cutoff != null), binds, queue);
        }
        long moved = 0;
        for (List<Object> batch : AdminRows.batches(ids)) {
            moved += admin.update(c, statements.redriveGroup(batch.size(), cutoff != null), binds.ids(batch), queue);
        }
        return moved;
    }

    long table(Connection c, AdminStatements statements, InboxQueue<?> queue, Table<?> dead,
            List<Object> ids, Instant cutoff) throws SQLException {
        TransactionOpening opening = admin.dialect.transactionOpening(queue.binding());
        List<List<Object>> named = ids.isEmpty() ? null : AdminRows.batches(ids);
        long moved = 0;
        for (int round = 0; named == null || round < named.size(); round++) {
            List<Object> batch = named == null ? List.of() : named.get(round);
            Binds select = new Binds().group(queue.group()).retryAt(cutoff).ids(batch).limit(AdminRows.BATCH);
            Transactions.begin(c, opening);
            try {
                List<Object> locked = admin.query(c, statements.deadIds(dead, batch.size(), cutoff != null), select,
                        queue.binding(), queue, rs -> {
                            List<Object> found = new ArrayList<>();
                            while (rs.next()) {
                                found.add(rs.getObject(1));
                            }
                            return found;
                        });
                if (!locked.isEmpty()) {
                    moveBack(c, statements, queue, dead, locked);
                }
                Transactions.commit(c, opening);
                moved += locked.size();
                if (named == null && locked.size() < AdminRows.BATCH) {
                    break;
                }
            } catch (SQLException | RuntimeException e) {
                Transactions.rollbackQuietly(c, opening);
                throw e;
            }
        }
        return moved;
    }

    /** Copies the rows {@code ids} names back into the queue table and deletes them from {@code dead}. */
    private void moveBack(Connection c, AdminStatements statements, InboxQueue<?> queue, Table<?> dead,
            List<Object> ids) throws SQLException {
        Binds byId = new Binds().ids(ids);
        int copied = admin.update(c, statements.copyBack(dead, ids.size()), byId, queue);
        int deleted = admin.update(c, statements.deleteDead(dead, ids.size()), byId, queue);
        if (copied != ids.size() || deleted != ids.size()) {
            throw new TableQueueException("queue " + queue + ": the redrive from dead-letter table \"" + dead.getName()
                    + "\" locked " + ids.size() + " rows but copied " + copied + " and deleted " + deleted
                    + "; it was rolled back, and no row of this batch moved");
        }
    }
}
