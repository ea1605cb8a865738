package dev.tablequeue.spring;

import dev.tablequeue.outbox.Outbox;
import dev.tablequeue.transport.OutgoingMessage;
import dev.tablequeue.transport.PublishMiddleware;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;

/**
 * A publish middleware inside the outbox's that sees every send of the in-memory transport: the message's
 * name, its record's id, and whether that record was committed when it was sent (read on a connection of the
 * pool's own, outside any transaction of the sender's).
 */
final class SentLog implements PublishMiddleware {
    /** One send. */
    record Sent(String name, String recordId, boolean recordCommitted) {}

    private final DataSource dataSource;
    private final OrderOutboxTable table;
    final List<Sent> sends = new CopyOnWriteArrayList<>();

    SentLog(DataSource dataSource, OrderOutboxTable table) {
        this.dataSource = dataSource;
        this.table = table;
    }

    @Override
    public void publish(OutgoingMessage message, Send next) throws Exception {
        String id = message.headers().get(Outbox.ID_HEADER);
        sends.add(new Sent(message.name(), id, id != null && committed(Long.parseLong(id))));
        next.send(message);
    }

    private boolean committed(long id) throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement s = c.prepareStatement("SELECT count(*) FROM " + table.getName() + " WHERE id = ?")) {
            s.setLong(1, id);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1) == 1;
            }
        }
    }
}
