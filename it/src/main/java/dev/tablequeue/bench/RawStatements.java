package dev.tablequeue.bench;

import dev.tablequeue.binding.Form;
import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.ClaimShape;
import dev.tablequeue.dialect.QueueClaims;
import dev.tablequeue.dialect.QueueDialect;
import dev.tablequeue.dialect.QueueSettlements;
import dev.tablequeue.dialect.Statement;
import dev.tablequeue.dialect.TransactionOpening;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The statements one form runs, taken from the dialect exactly as a subscription builds them (payload mode:
 * the claim returns the roles a delivery reads), the claim as a claim of a given limit runs it. Null where the
 * form or the database has no such statement.
 */
record RawStatements(
        IntFunction<Statement> claim,
        Statement stamp,
        Statement take,
        Statement fetchOne,
        Statement ack,
        TransactionOpening opening) {

    static RawStatements of(QueueDialect dialect, RoleBinding<?> binding) {
        dialect.validate(binding);
        ClaimShape shape = ClaimShape.ROLES;
        Form form = binding.form();
        boolean advisory = form == Form.ADVISORY;
        // the claim first, then (lease form, where the claim does not stamp its rows) the stamp of one row;
        // advisory: the candidates, the take, then (where the take does not return its row) the fetch
        QueueClaims rows = advisory ? null : dialect.claims(binding, shape, false);
        List<Statement> claims = advisory ? dialect.keys(binding, shape, false).statements() : rows.statements();
        Statement first = claims.get(0);
        return new RawStatements(
                advisory ? limit -> first : rows::claim,
                purposed(claims, "lease stamp"),
                advisory ? claims.get(1) : null,
                advisory ? purposed(claims, "fetch") : null,
                dialect.settlements(binding, false, null).statements(QueueSettlements.Kind.ACK).get(0),
                dialect.transactionOpening(binding));
    }

    /** The statement of {@code purpose} among {@code statements}, or null. */
    private static Statement purposed(List<Statement> statements, String purpose) {
        return statements.stream().filter(s -> s.purpose().equals(purpose)).findFirst().orElse(null);
    }
}
