package dev.tablequeue.bench;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.ClaimShape;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.dialect.TransactionOpening;
import java.util.List;

/**
 * The statements one form runs, taken from the dialect exactly as a subscription builds them (payload mode:
 * the claim returns the roles a delivery reads). Null where the form or the database has no such statement.
 */
record RawStatements(
        Statement claim,
        Statement stamp,
        Statement take,
        Statement fetchOne,
        Statement lock,
        Statement unlock,
        Statement ack,
        TransactionOpening opening) {

    static RawStatements of(QueueDialect dialect, RoleBinding<?> binding) {
        dialect.validate(binding);
        ClaimShape shape = ClaimShape.ROLES;
        Form form = binding.form();
        boolean advisory = form == Form.ADVISORY;
        // the claim first, then (lease form, where the claim does not stamp its rows) the stamp of one row
        List<Statement> claims = advisory ? List.of() : dialect.claims(binding, shape, false).statements();
        return new RawStatements(
                advisory ? dialect.advisoryCandidates(binding) : claims.get(0),
                claims.stream().filter(s -> s.purpose().equals("lease stamp")).findFirst().orElse(null),
                advisory ? dialect.advisoryTake(binding, shape) : null,
                advisory && !dialect.advisoryTakeReturnsRows(binding)
                        ? dialect.fetchByIds(binding, shape, 1, true)
                        : null,
                advisory ? dialect.advisoryLock(binding).orElse(null) : null,
                advisory ? dialect.advisoryUnlock(binding).orElse(null) : null,
                dialect.ack(binding),
                dialect.transactionOpening(binding));
    }
}
