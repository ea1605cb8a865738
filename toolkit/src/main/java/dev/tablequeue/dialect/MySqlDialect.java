package dev.tablequeue.dialect;

import dev.tablequeue.DialectException;
import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.Isolation;
import dev.tablequeue.binding.Opening;
import dev.tablequeue.binding.Role;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.internal.StatementWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.SQLDialect;
import org.jooq.Schema;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * MySQL 8.0.1 or later and MariaDB 10.6 or later, in every form; {@link #forServer} picks the server and
 * refuses an older one.
 *
 * <p><b>Claims.</b> The row lock claim is a {@code SELECT .. FOR UPDATE SKIP LOCKED}. Neither server can
 * UPDATE .. RETURNING (jOOQ drops the clause on MySQL and emulates it on MariaDB in a way that fails when SET
 * reads a column), and a single {@code UPDATE .. WHERE id IN (SELECT .. SKIP LOCKED)} blocks on MariaDB. So
 * a lease claim is that same locking select, which returns the attempt as it stands, and the runtime then
 * runs {@link #leaseStamp} on the ids it took, in the same transaction, and commits.
 *
 * <p>InnoDB locks every row a locking read matches before it sorts them, so a claim that must sort keeps
 * the whole group from other claims: a table wants an index in its claim order, (group, priority,
 * retry_after, id) for the columns its binding names, so that a claim reads and locks its first rows alone.
 * Without a priority column a claim reads its group's due rows as a range of that index, and one that reads
 * to the end of the range still locks the entry after it, which may be the next group's first row, until its
 * transaction ends: a claim of that group then passes over it, and a later claim takes it. Rows of groups
 * that share such a table are therefore not strictly delivered in claim order.
 *
 * <p><b>FIFO groups.</b> A FIFO claim first locks every unfinished row of its group that no other
 * transaction holds ({@code FOR UPDATE SKIP LOCKED} in a subquery, which both servers lock), and goes on only
 * if that was every one ({@link #fifoGuard}). Its transaction keeps them: in the row lock form until the
 * delivery settles, in the lease form until the stamp commits. A second claim of the group meanwhile
 * answers false and takes nothing, without waiting. Only then does the claim compute the head: the head
 * alone cannot tell a row in work (in the row lock form nothing but a lock marks one) from a row ahead of it
 * that came later. An index on (group, priority, retry_after, id) keeps these reads to the group's own rows.
 * A row lock table with FIFO groups at SERIALIZABLE is refused: InnoDB then locks every row a read touches,
 * and a claim would wait for the group's row in work.
 *
 * <p><b>Advisory locks.</b> A key is locked with {@code GET_LOCK(name, 0)} on the name {@code db.key}: the
 * table's schema, or the connection's database, in lower case, a dot and the key, and where that is over the
 * 64 characters MySQL takes, its SHA-256 in hex. Candidates leave out names any session holds
 * ({@code IS_FREE_LOCK}).
 *
 * <p><b>Time.</b> Time columns are {@code DATETIME} holding UTC. Every time binds as a UTC
 * {@link LocalDateTime} truncated to microseconds, whatever Java type the jOOQ field carries (an
 * {@code OffsetDateTime} forced onto a column included): the drivers would otherwise shift an offset time into
 * the session's zone, and a binding on the database clock compares with {@code UTC_TIMESTAMP(6)}. A
 * {@code TIMESTAMP} column works only on sessions whose {@code time_zone} is {@code '+00:00'}. A delay on
 * the database clock binds as whole microseconds.
 *
 * <p><b>Transactions</b> open with {@code SET TRANSACTION ISOLATION LEVEL ..}, which sets the next
 * transaction's level, at READ COMMITTED where the binding declares none: there a claim held for a handler
 * locks no gaps and holds back no insert.
 */
public final class MySqlDialect extends JooqQueueDialect {
    private static final RowsTable ROWS = new MySqlRows();
    /** MySQL and MariaDB keep identifiers up to 64 characters. */
    public static final int MAX_IDENTIFIER_CHARS = 64;

    /** MySQL takes GET_LOCK names up to 64 characters; a longer one is locked by its SHA-256. */
    public static final int MAX_LOCK_NAME_CHARS = 64;

    private static final List<Isolation> OPENS = List.of(Isolation.values());

    private final MySqlServer server;

    private MySqlDialect(MySqlServer server) {
        super(server.mariaDb() ? SQLDialect.MARIADB : SQLDialect.MYSQL);
        this.server = server;
    }

    /**
     * The dialect for the server JDBC's {@code DatabaseMetaData} describes: {@code getDatabaseProductName()}
     * and {@code getDatabaseProductVersion()}. MariaDB is told apart by its name in either string (through
     * mysql-connector-j it reports "MySQL").
     *
     * @throws dev.tablequeue.ServerTooOldException for MySQL before 8.0.1 or MariaDB before 10.6
     * @throws IllegalArgumentException for another database, or a version without numbers
     */
    public static MySqlDialect forServer(String databaseProductName, String databaseProductVersion) {
        MySqlServer server = MySqlServer.of(databaseProductName, databaseProductVersion);
        return new MySqlDialect(server.requireFloor(databaseProductVersion));
    }

    @Override
    public String name() {
        return server.mariaDb() ? "mariadb" : "mysql";
    }

    @Override
    public boolean supportsForm(Form form) {
        return true;
    }

    @Override
    public void validate(RoleBinding<?> b) {
        requireForm(b);
        requireOpening(b, OPENS);
        if (b.fifo() && b.form() == Form.ROW_LOCK && b.opening().orElse(null) == Isolation.SERIALIZABLE) {
            throw new DialectException(name(), b.tableName(), "a row lock table with FIFO groups cannot open"
                    + " SERIALIZABLE transactions: InnoDB then locks every row a read touches, and a claim would"
                    + " wait for the group's row in work; declare READ_COMMITTED");
        }
        requireNameLength(b, MAX_IDENTIFIER_CHARS, false);
    }

    // ---- claims ----

    /**
     * Selects and locks the claimable rows, with the attempt as it stands. {@link #claimRowLock}'s statement
     * is this select already: its claimable condition leaves out the rows a lease holds.
     */
    @Override
    Statement claimLease(RoleBinding<?> b, ClaimShape shape, StatementWriter w) {
        Statement select = claimRowLock(b, shape, w);
        return new Statement(b.fifo() ? "fifo lease claim" : "lease claim", select.sql(), select.params());
    }

    @Override
    boolean claimLeaseStamps() {
        return false;
    }

    /**
     * True but for FIFO tables (whose claim takes one row, and locks its group on purpose): InnoDB keeps the
     * lock of a row a locking read touched and passed over (one not yet due, which the claim index holds
     * after the due rows of its priority) until the transaction ends, and a row lock claim's transaction
     * lasts as long as its handlers.
     *
     * <p>Finding the ids in auto-commit and locking them again by primary key would hold exactly the claimed
     * rows, but deadlocks: a claim through the claim index skips an entry locked there, yet waits for a
     * clustered record another transaction holds, so the holder must lock its rows' claim-index entries too,
     * as the claim itself does.
     */
    @Override
    boolean rowLockClaimHoldsRowsItPasses(RoleBinding<?> b) {
        return !b.fifo();
    }

    /**
     * Locks every unfinished row of the group that no other transaction holds, and answers whether that was
     * all of them. A row another claim holds (in the row lock form: a delivery in work) is skipped, not
     * waited for, and the answer is false, so the claim takes nothing; its transaction should then end, as it
     * holds the rows it did lock. The answer compares sets, not counts: every unfinished row the statement
     * reads must be among those it locked, so a held row answers false whatever commits meanwhile, where a
     * count could be balanced by a row committed between the two reads.
     */
    @Override
    Optional<FifoGuard> fifoGuard(RoleBinding<?> b) {
        if (!b.fifo()) {
            return Optional.empty();
        }
        StatementWriter w = writer();
        Field<Object> id = typed(b.id());
        var lockable = w.dsl().select(id)
                .from(b.table())
                .where(unfinishedOfGroup(w, b))
                .forUpdate()
                .skipLocked();
        Condition allLocked = notExists(w.dsl().selectOne()
                .from(b.table())
                .where(unfinishedOfGroup(w, b))
                .and(id.notIn(lockable)));
        return Optional.of(new FifoGuard(w.statement("fifo guard",
                w.dsl().select(DSL.field(allLocked).as("tq_free"))), true));
    }

    /** {@code group = ?}, and {@code processed_at IS NULL} where the table has it. */
    private static Condition unfinishedOfGroup(StatementWriter w, RoleBinding<?> b) {
        Field<Object> group = typed(b.column(Role.GROUP).orElseThrow());
        Condition inGroup = group.eq(w.bind(Param.of(Param.Kind.GROUP), group));
        return b.column(Role.PROCESSED_AT).map(p -> inGroup.and(unqualified(p).isNull())).orElse(inGroup);
    }

    // ---- advisory locks ----

    @Override
    Statement advisoryCandidates(RoleBinding<?> b, StatementWriter w) {
        requireForm(b);
        Field<String> key = keyText(w, b);
        Condition free = DSL.condition("is_free_lock({0}) = 1", lockName(w, b, key));
        return w.statement("advisory candidates", w.dsl()
                .select(unqualified(b.id()), key.as("tq_key"))
                .from(b.table())
                .where(claimable(w, b))
                .and(free)
                .orderBy(claimOrder(b))
                .limit(w.integer(Param.of(Param.Kind.LIMIT))));
    }

    /**
     * {@code DELETE t FROM t FORCE INDEX (PRIMARY) WHERE ..}: a single-table DELETE takes no index hint, and without
     * one the planner may scan a small table, locking every row it reads (see {@link MySqlRows}).
     */
    @Override
    @SuppressWarnings("unchecked")
    Statement deleteByIds(StatementWriter w, String purpose, org.jooq.Table<?> table, Condition where) {
        String select = w.render(w.dsl().select(DSL.inline(1))
                .from(((org.jooq.Table<org.jooq.Record>) table).forceIndex("PRIMARY")).where(where));
        String head = "select 1 from ";
        if (!select.startsWith(head)) {
            throw new IllegalStateException("jOOQ rendered an unexpected SELECT: " + select);
        }
        return w.fromNamed(purpose, "delete " + w.render(table) + " from " + select.substring(head.length()));
    }

    /** {@code GET_LOCK(name, 0)}: 1 where it took the key, without waiting. */
    @Override
    Optional<Statement> advisoryLock(RoleBinding<?> b) {
        return Optional.of(onLockName(b, "advisory lock", "get_lock({0}, 0)"));
    }

    /** {@code RELEASE_LOCK(name)}: 1 where the session held the key. */
    @Override
    Optional<Statement> advisoryUnlock(RoleBinding<?> b) {
        return Optional.of(onLockName(b, "advisory unlock", "release_lock({0})"));
    }

    /** {@code SELECT function(name)} on the lock name of a {@link Param.Kind#KEY}. */
    private Statement onLockName(RoleBinding<?> b, String purpose, String function) {
        StatementWriter w = writer();
        Field<String> name = lockName(w, b, w.text(Param.of(Param.Kind.KEY)));
        return w.statement(purpose, w.dsl().select(DSL.field(function, SQLDataType.INTEGER, name)));
    }

    /**
     * The lock name of {@code key}: the table's schema (or the connection's database) in lower case, a dot and
     * the key; its SHA-256 in hex where that is longer than the server takes.
     */
    private Field<String> lockName(StatementWriter w, RoleBinding<?> b, Field<String> key) {
        Schema schema = b.table().getSchema();
        Field<String> database = schema == null || schema.getName().isEmpty()
                ? DSL.field("database()", SQLDataType.VARCHAR)
                : w.text(Param.constant(schema.getName()));
        Field<String> name = DSL.concat(DSL.lower(database), DSL.inline("."), key);
        return DSL.field("if(char_length({0}) > {1}, sha2({0}, 256), {0})", SQLDataType.VARCHAR,
                name, DSL.inline(MAX_LOCK_NAME_CHARS));
    }

    /**
     * Counts the attempt of a row whose key the session holds, while it is still claimable (an update count;
     * the runtime then fetches the row). A table without an attempt column has nothing to count, so its take
     * selects the row while it is still claimable.
     */
    @Override
    Statement advisoryTake(RoleBinding<?> b, ClaimShape shape) {
        requireForm(b);
        StatementWriter w = writer();
        Optional<Field<?>> attempt = b.column(Role.ATTEMPT);
        if (attempt.isEmpty()) {
            return w.statement("advisory take", w.dsl().select(shape(b, shape, false))
                    .from(b.table())
                    .where(idIs(w, b))
                    .and(claimable(w, b)));
        }
        Map<Field<?>, Field<?>> set = Map.of(typed(attempt.get()), attemptPlusOne(attempt.get()));
        return w.statement("advisory take", w.dsl().update(table(b))
                .set(set)
                .where(idIs(w, b))
                .and(claimable(w, b)));
    }

    /** Rows only where the take is the SELECT of a table without an attempt column. */
    @Override
    boolean advisoryTakeReturnsRows(RoleBinding<?> b) {
        return !b.has(Role.ATTEMPT);
    }

    // ---- transactions ----

    /**
     * {@code SET TRANSACTION ISOLATION LEVEL ..} with auto-commit off, before the transaction's first
     * statement: the binding's level, or READ COMMITTED.
     */
    @Override
    public TransactionOpening transactionOpening(RoleBinding<?> b) {
        validate(b);
        Opening level = b.opening().orElse(Isolation.READ_COMMITTED);
        return new TransactionOpening(false,
                Optional.of("SET TRANSACTION ISOLATION LEVEL " + ((Isolation) level).sql()));
    }

    /**
     * {@code innodb_lock_wait_timeout}, in whole seconds (at least one); a statement past it fails with error
     * 1205 (ER_LOCK_WAIT_TIMEOUT).
     */
    @Override
    LockWait lockWait(RoleBinding<?> b, java.time.Duration bound) {
        long seconds = Math.max(1, (bound.toMillis() + 999) / 1000);
        return new LockWait("SET SESSION innodb_lock_wait_timeout = " + seconds,
                "SET SESSION innodb_lock_wait_timeout = DEFAULT", e -> e.getErrorCode() == 1205);
    }

    // ---- time ----

    @Override
    public Field<?> databaseNow() {
        return DSL.field("utc_timestamp(6)", SQLDataType.LOCALDATETIME(6));
    }

    @Override
    RowsTable rowsTable() {
        return ROWS;
    }

    @Override
    Field<?> databaseNowPlus(StatementWriter w) {
        Field<Long> micros = w.bind(Param.of(Param.Kind.DELAY), SQLDataType.BIGINT);
        return DSL.field("timestampadd(microsecond, {0}, utc_timestamp(6))", SQLDataType.LOCALDATETIME(6), micros);
    }

    /** Whole microseconds, as {@code TIMESTAMPADD(MICROSECOND, ..)} takes them. */
    @Override
    public Object delayValue(Duration delay) {
        return delay.dividedBy(ChronoUnit.MICROS.getDuration());
    }

    /** A UTC {@link LocalDateTime} in microseconds, for every time column (see the class notes). */
    @Override
    public Object timeValue(Field<?> column, Instant instant) {
        return LocalDateTime.ofInstant(instant.truncatedTo(ChronoUnit.MICROS), ZoneOffset.UTC);
    }

    /** Reads a UTC {@link LocalDateTime}, for every time column, as {@link #timeValue} writes it. */
    @Override
    public Instant readTime(java.sql.ResultSet rs, int index, Field<?> column) throws java.sql.SQLException {
        LocalDateTime time = rs.getObject(index, LocalDateTime.class);
        return time == null ? null : time.toInstant(ZoneOffset.UTC);
    }

    /**
     * Prepares on the server: MySQL's and MariaDB's drivers prepare on the client unless told otherwise, so a
     * server-side {@code PREPARE} checks the statement's tables and columns.
     */
    @Override
    public void prepare(java.sql.Connection connection, Statement statement) throws java.sql.SQLException {
        try (java.sql.PreparedStatement text = connection.prepareStatement("SET @tq_check = ?")) {
            text.setString(1, statement.sql());
            text.execute();
        }
        try (java.sql.Statement s = connection.createStatement()) {
            s.execute("PREPARE tq_check FROM @tq_check");
            s.execute("DEALLOCATE PREPARE tq_check");
        } catch (java.sql.SQLException e) {
            if (e.getErrorCode() == NO_SUCH_KEY && statement.sql().contains("force index")) {
                throw new java.sql.SQLException("the table has no primary key, and on " + name() + " a queue table's"
                        + " id column is its primary key (the settlements of many rows find each row through it): "
                        + e.getMessage(), e.getSQLState(), e.getErrorCode(), e);
            }
            throw e;
        }
    }

    /** The server's error for an index a statement names that the table lacks (ER_KEY_DOES_NOT_EXISTS). */
    private static final int NO_SUCH_KEY = 1176;

    @Override
    UniqueInsert uniqueInsert(RoleBinding<?> b) {
        return new DuplicateKeyInsert(this, b);
    }
}
