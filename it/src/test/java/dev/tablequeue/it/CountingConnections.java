package dev.tablequeue.it;

import dev.tablequeue.test.contract.ForwardingDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import javax.sql.DataSource;

/**
 * A data source over a pool that counts what the server is asked to run of a chosen kind of prepared
 * statement: each execution once, and each row of a JDBC batch once (the server runs it once per row).
 *
 * <p>Its connections answer {@code unwrap(Connection.class)} with themselves, as a wrapper that must see every
 * statement does, so that a dialect that keeps its statements on the driver's connection (SQLite's) keeps them
 * on this wrapper's; {@link #handingOverTarget} makes one that hands over the pool's connection beneath.
 */
final class CountingConnections extends ForwardingDataSource {
    private static final Set<String> EXECUTIONS =
            Set.of("execute", "executeUpdate", "executeQuery", "executeLargeUpdate", "addBatch");

    private final Predicate<String> kind;
    /** The SQL of each execution counted, in order. */
    final List<String> executed = new CopyOnWriteArrayList<>();
    /** Each array of text bound to a statement of the kind, in order. */
    final List<List<String>> textArrays = new CopyOnWriteArrayList<>();
    /** The SQL of each statement of the kind prepared, in order. */
    final List<String> prepared = new CopyOnWriteArrayList<>();
    /** As {@link #prepared}, each after the number of the connection (as this data source lent it) it was prepared on. */
    final List<String> preparedOn = new CopyOnWriteArrayList<>();
    private final java.util.concurrent.atomic.AtomicInteger lent = new java.util.concurrent.atomic.AtomicInteger();
    /** Whether a connection's {@code unwrap(Connection.class)} hands over the pool's connection beneath it. */
    private final boolean handsOverTarget;

    CountingConnections(DataSource target, Predicate<String> kind) {
        this(target, kind, false);
    }

    private CountingConnections(DataSource target, Predicate<String> kind, boolean handsOverTarget) {
        super(target);
        this.kind = kind;
        this.handsOverTarget = handsOverTarget;
    }

    /** As the constructor, with connections whose {@code unwrap(Connection.class)} hands over the pool's beneath. */
    static CountingConnections handingOverTarget(DataSource target, Predicate<String> kind) {
        return new CountingConnections(target, kind, true);
    }

    /**
     * A settlement of table {@code table}: an UPDATE or DELETE of it that writes no lease (a claim's stamp and
     * a lease extension bind the lease they write; a settlement clears it or leaves it).
     */
    static Predicate<String> settlementOf(String table) {
        return sql -> {
            String s = plain(sql);
            return (s.startsWith("update " + table + " ") || s.startsWith("delete from " + table + " ")
                    || manyRowsJoined(s, table))
                    && !s.contains("locked_until = ?,") && !s.matches(".* set locked_until = \\?( |$).*");
        };
    }

    /** An acknowledgement of table {@code table} (which keeps processed_at): the UPDATE that marks it. */
    static Predicate<String> acknowledgementOf(String table) {
        return sql -> {
            String s = plain(sql);
            return s.startsWith("update " + table + " set processed_at = ")
                    || manyRowsJoined(s, table) && s.startsWith("update ") && s.contains(" set processed_at = ");
        };
    }

    /**
     * MySQL's and MariaDB's settlement of many rows, which names the table after the rows it joins:
     * {@code UPDATE json_table(..) AS tq_v STRAIGHT_JOIN t FORCE INDEX (PRIMARY) ON .. SET ..}, {@code DELETE t FROM json_table(..) ..}.
     */
    private static boolean manyRowsJoined(String s, String table) {
        return (s.startsWith("update json_table(") || s.startsWith("delete " + table + " from json_table("))
                && s.contains(" straight_join " + table + " force index (primary) on ");
    }

    /** The statement in lower case without identifier quotes. */
    static String plain(String sql) {
        return sql.toLowerCase(Locale.ROOT).replace("\"", "").replace("`", "").trim();
    }

    /** How many executions were counted. */
    int count() {
        return executed.size();
    }

    @Override
    protected Connection lend(Connection c) {
        int number = lent.incrementAndGet();
        Call<Connection> call = (target, method, args) -> {
            Object result = forward(target, method, args);
            if (method.getName().equals("prepareStatement") && args != null && args[0] instanceof String sql
                    && kind.test(sql)) {
                prepared.add(sql);
                preparedOn.add(number + ": " + sql);
                return counting((PreparedStatement) result, sql);
            }
            return result;
        };
        return handsOverTarget ? proxy(Connection.class, c, call) : intercepting(c, call);
    }

    private PreparedStatement counting(PreparedStatement statement, String sql) {
        return intercepting(statement, (ps, method, args) -> {
            if (EXECUTIONS.contains(method.getName()) && (args == null || args.length == 0)) {
                executed.add(sql);
            }
            if (method.getName().equals("setObject") && args != null && args.length >= 2
                    && args[1] instanceof String[] texts) {
                textArrays.add(List.of(texts));
            }
            return forward(ps, method, args);
        });
    }
}
