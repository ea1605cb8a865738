package dev.tablequeue.dialect;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jooq.Field;
import org.jooq.SQLDialect;
import org.jooq.Table;

/**
 * A dialect that hands every statement to another one: the base of a dialect that serves a database as a
 * built-in does, under its own name or with a statement of its own, overriding only what differs.
 *
 * <p>This SPI may still change before 1.0.
 */
public abstract class ForwardingQueueDialect implements QueueDialect {
    private final QueueDialect delegate;

    protected ForwardingQueueDialect(QueueDialect delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** The dialect this one hands its statements to. */
    protected final QueueDialect delegate() {
        return delegate;
    }

    @Override
    public String name() {
        return delegate.name();
    }

    @Override
    public SQLDialect sqlDialect() {
        return delegate.sqlDialect();
    }

    @Override
    public boolean supportsForm(Form form) {
        return delegate.supportsForm(form);
    }

    @Override
    public void validate(RoleBinding<?> binding) {
        delegate.validate(binding);
    }

    @Override
    public QueueClaims claims(RoleBinding<?> binding, ClaimShape shape, boolean inKeyOrder) {
        return delegate.claims(binding, shape, inKeyOrder);
    }

    @Override
    public Statement leaseExtend(RoleBinding<?> binding) {
        return delegate.leaseExtend(binding);
    }

    @Override
    public Statement advisoryCandidates(RoleBinding<?> binding) {
        return delegate.advisoryCandidates(binding);
    }

    @Override
    public Optional<Statement> advisoryLock(RoleBinding<?> binding) {
        return delegate.advisoryLock(binding);
    }

    @Override
    public Optional<Statement> advisoryUnlock(RoleBinding<?> binding) {
        return delegate.advisoryUnlock(binding);
    }

    @Override
    public Statement advisoryTake(RoleBinding<?> binding, ClaimShape shape) {
        return delegate.advisoryTake(binding, shape);
    }

    @Override
    public boolean advisoryTakeReturnsRows(RoleBinding<?> binding) {
        return delegate.advisoryTakeReturnsRows(binding);
    }

    @Override
    public Optional<Statement> advisoryLockAndTake(RoleBinding<?> binding, ClaimShape shape) {
        return delegate.advisoryLockAndTake(binding, shape);
    }

    @Override
    public Optional<Statement> advisoryWalk(RoleBinding<?> binding, ClaimShape shape) {
        return delegate.advisoryWalk(binding, shape);
    }

    @Override
    public Optional<Statement> advisorySettleAndUnlock(RoleBinding<?> binding, Statement outcome) {
        return delegate.advisorySettleAndUnlock(binding, outcome);
    }

    @Override
    public Optional<Statement> advisorySettleAndWalk(RoleBinding<?> binding, Statement outcome, ClaimShape shape) {
        return delegate.advisorySettleAndWalk(binding, outcome, shape);
    }

    @Override
    public Statement fetchByIds(RoleBinding<?> binding, ClaimShape shape, int count, boolean stamped) {
        return delegate.fetchByIds(binding, shape, count, stamped);
    }

    @Override
    public Statement ack(RoleBinding<?> binding) {
        return delegate.ack(binding);
    }

    @Override
    public Optional<Statement> retry(RoleBinding<?> binding) {
        return delegate.retry(binding);
    }

    @Override
    public Statement retryAfter(RoleBinding<?> binding) {
        return delegate.retryAfter(binding);
    }

    @Override
    public Statement drop(RoleBinding<?> binding) {
        return delegate.drop(binding);
    }

    @Override
    public Statement deadLetterToGroup(RoleBinding<?> binding) {
        return delegate.deadLetterToGroup(binding);
    }

    @Override
    public List<Statement> deadLetterToTable(RoleBinding<?> binding, Table<?> target) {
        return delegate.deadLetterToTable(binding, target);
    }

    @Override
    public Optional<Statement> ackMany(RoleBinding<?> binding) {
        return delegate.ackMany(binding);
    }

    @Override
    public Optional<Statement> dropMany(RoleBinding<?> binding) {
        return delegate.dropMany(binding);
    }

    @Override
    public Optional<Statement> retryMany(RoleBinding<?> binding) {
        return delegate.retryMany(binding);
    }

    @Override
    public Optional<Statement> retryAfterMany(RoleBinding<?> binding) {
        return delegate.retryAfterMany(binding);
    }

    @Override
    public Optional<Statement> deadLetterToGroupMany(RoleBinding<?> binding) {
        return delegate.deadLetterToGroupMany(binding);
    }

    @Override
    public TransactionOpening transactionOpening(RoleBinding<?> binding) {
        return delegate.transactionOpening(binding);
    }

    @Override
    public Statement insert(RoleBinding<?> binding) {
        return delegate.insert(binding);
    }

    @Override
    public Optional<Statement> insertReturningId(RoleBinding<?> binding) {
        return delegate.insertReturningId(binding);
    }

    @Override
    public Optional<UniqueInsert> uniqueInsert(RoleBinding<?> binding) {
        return delegate.uniqueInsert(binding);
    }

    @Override
    public Optional<Statement> insertWith(RoleBinding<?> binding, dev.tablequeue.transport.LeadingInsert leading) {
        return delegate.insertWith(binding, leading);
    }

    @Override
    public Optional<Statement> notify(String channel) {
        return delegate.notify(channel);
    }

    @Override
    public Field<?> databaseNow() {
        return delegate.databaseNow();
    }

    @Override
    public Object timeValue(Field<?> column, Instant instant) {
        return delegate.timeValue(column, instant);
    }

    @Override
    public Instant readTime(ResultSet rs, int index, Field<?> column) throws SQLException {
        return delegate.readTime(rs, index, column);
    }

    @Override
    public Object delayValue(Duration delay) {
        return delegate.delayValue(delay);
    }

    @Override
    public Object rowsValue(Param rows, List<dev.tablequeue.internal.Binds> each) {
        return delegate.rowsValue(rows, each);
    }

    @Override
    public boolean claimsInParallel() {
        return delegate.claimsInParallel();
    }

    @Override
    public StatementCache statementCache() {
        return delegate.statementCache();
    }

    @Override
    public Optional<ProcessKeys> processKeys(Connection connection) throws SQLException {
        return delegate.processKeys(connection);
    }

    @Override
    public Optional<String> refuseChannel(String channel) {
        return delegate.refuseChannel(channel);
    }

    @Override
    public Optional<String> refuseTransactional(RoleBinding<?> b) {
        return delegate.refuseTransactional(b);
    }

    @Override
    public Optional<LockWait> lockWait(java.time.Duration bound) {
        return delegate.lockWait(bound);
    }

    @Override
    public Notifications listen(Connection connection, java.util.Collection<String> channels) throws SQLException {
        return delegate.listen(connection, channels);
    }

    @Override
    public boolean supportsNotify() {
        return delegate.supportsNotify();
    }

    @Override
    public void prepare(Connection connection, Statement statement) throws SQLException {
        delegate.prepare(connection, statement);
    }

    @Override
    public void requireForm(RoleBinding<?> binding) {
        delegate.requireForm(binding);
    }

    @Override
    public String toString() {
        return name() + " (through " + delegate.name() + ")";
    }
}
