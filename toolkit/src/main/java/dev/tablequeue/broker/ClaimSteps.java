package dev.tablequeue.broker;

import dev.tablequeue.dialect.ClaimedRows;
import dev.tablequeue.internal.ClaimSequence;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.OptionalInt;
import org.jooq.Record;

/**
 * The advisory claim ({@link ClaimSequence}) of one subscription, bound to its queue's group, the broker's clock, and
 * rows read as the subscription's deliveries take them ({@link RowReader}).
 */
final class ClaimSteps extends ClaimSequence<ClaimedRow> {

    ClaimSteps(SubscriptionContext ctx) {
        super(ctx.statements.keys(), ctx.queue.group(), ctx::now, new Delivered(ctx.reader));
    }

    /** Claimed rows as {@link RowReader} reads them; a claimed id without a row fails to decode. */
    record Delivered(RowReader reader) implements ClaimedRows<ClaimedRow> {
        @Override
        public ClaimedRow read(ResultSet rs) throws SQLException {
            return reader.read(rs);
        }

        @Override
        public ClaimedRow fromRecord(Record record, boolean stamped) {
            return reader.fromRecord(record, stamped);
        }

        @Override
        public Object id(ClaimedRow row) {
            return row.id();
        }

        @Override
        public ClaimedRow unfetched(Object id, String failure) {
            return new ClaimedRow(id, OptionalInt.empty(), null, Map.of(), null, null,
                    new IllegalStateException(failure));
        }
    }
}
