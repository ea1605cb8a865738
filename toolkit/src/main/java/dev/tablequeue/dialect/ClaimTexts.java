package dev.tablequeue.dialect;

import dev.tablequeue.internal.StatementWriter;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The text of a claim (or of a read of advisory candidates) for each number of rows it takes: one statement that
 * binds its limit, or, where the server plans a statement badly without seeing its limit, one statement per limit
 * with the number in its text.
 *
 * <p>PostgreSQL plans a prepared statement for its parameters at each execution while that plan looks cheaper
 * than one plan for any parameters, and it estimates a bound {@code LIMIT} at a tenth of the table's rows: a
 * claim with its limit bound was planned again at every execution, which took as long as running it. With the
 * number in the text the server keeps one plan per limit on each connection. A subscription asks for few
 * distinct limits (at most its workers); past {@link #MOST_KEPT} limits the text is written at each use.
 */
final class ClaimTexts {
    /** How many limits' texts are kept; more is a subscription claiming for more workers than any runs. */
    static final int MOST_KEPT = 256;

    private final Statement bound;
    /** Null where the bound statement serves every limit. */
    private final Function<StatementWriter, Statement> build;
    private final StatementWriter writer;
    private final Map<Integer, Statement> written = new ConcurrentHashMap<>();

    private ClaimTexts(Statement bound, Function<StatementWriter, Statement> build, StatementWriter writer) {
        this.bound = bound;
        this.build = build;
        this.writer = writer;
    }

    /** One statement for every limit, the limit bound. */
    static ClaimTexts bound(Statement bound) {
        return new ClaimTexts(bound, null, null);
    }

    /**
     * A statement per limit, each written by {@code build} with a fresh writer like {@code writer}; a claim
     * that takes no limit (a FIFO claim takes its group's head) keeps its one statement.
     */
    static ClaimTexts written(StatementWriter writer, Function<StatementWriter, Statement> build) {
        Statement bound = build.apply(writer);
        boolean limited = bound.params().stream().anyMatch(p -> p.kind() == Param.Kind.LIMIT);
        return limited ? new ClaimTexts(bound, build, writer) : bound(bound);
    }

    /** The statement with its limit bound: what the build-time check and a start prepare. */
    Statement bound() {
        return bound;
    }

    /** The statement a claim of {@code limit} rows runs. */
    Statement at(int limit) {
        if (build == null) {
            return bound;
        }
        Statement kept = written.get(limit);
        if (kept != null) {
            return kept;
        }
        Statement text = build.apply(writer.withLimitWritten(limit));
        if (written.size() < MOST_KEPT) {
            written.putIfAbsent(limit, text);
        }
        return text;
    }
}
