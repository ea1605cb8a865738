package dev.tablequeue.dialect;

import dev.tablequeue.internal.Binds;
import dev.tablequeue.internal.Jdbc;
import dev.tablequeue.internal.StatementWriter;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * PostgreSQL's notifications: {@code pg_notify(channel, group)} in the publish's transaction, one statement per
 * channel, built once; a listener through pgjdbc ({@link PgNotifications}, loaded only by a broker that listens).
 * A channel is a table's name, which PostgreSQL keeps up to 63 bytes.
 */
final class PostgresNotifications implements QueueNotifications {
    private final QueueDialect dialect;
    private final Function<String, Statement> build;
    private final Map<String, Statement> byChannel = new ConcurrentHashMap<>();

    PostgresNotifications(QueueDialect dialect, Function<String, Statement> build) {
        this.dialect = dialect;
        this.build = build;
    }

    /** The statement of a notification on {@code channel}, by {@code w}: {@code select pg_notify(..)}. */
    static Statement notification(StatementWriter w, String channel) {
        return w.statement("notify", w.dsl().select(DSL.field("pg_notify({0}, {1})", SQLDataType.VARCHAR,
                w.text(Param.constant(channel)), w.text(Param.of(Param.Kind.GROUP)))));
    }

    @Override
    public Optional<String> refuseListener() {
        return Optional.empty();
    }

    @Override
    public Optional<String> refuse(String channel) {
        int bytes = channel.getBytes(StandardCharsets.UTF_8).length;
        return bytes > PostgresDialect.MAX_IDENTIFIER_BYTES
                ? Optional.of("the notification channel \"" + channel + "\" is " + bytes
                        + " bytes; Postgres keeps channel names up to " + PostgresDialect.MAX_IDENTIFIER_BYTES)
                : Optional.empty();
    }

    @Override
    public List<Statement> statements(String channel) {
        return List.of(statement(channel));
    }

    private Statement statement(String channel) {
        return byChannel.computeIfAbsent(channel, build);
    }

    @Override
    public void notify(Connection c, String channel, String group) throws SQLException {
        Jdbc.query(c, statement(channel), new Binds().group(group), dialect, rs -> null);
    }

    @Override
    public Notifications listen(Connection connection, Collection<String> channels) throws SQLException {
        return PgNotifications.listen(connection, channels);
    }
}
