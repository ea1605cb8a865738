package dev.tablequeue.internal;

import dev.tablequeue.dialect.Param;
import dev.tablequeue.dialect.Statement;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jooq.DSLContext;
import org.jooq.DataType;
import org.jooq.Field;
import org.jooq.QueryPart;
import org.jooq.conf.RenderQuotedNames;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * Renders one statement built with jOOQ and records what each of its {@code ?} binds.
 *
 * <p>Each bind is a jOOQ named parameter whose name indexes the {@link Param} it stands for. The statement is
 * rendered with named parameters under a prefix no identifier carries, and each occurrence is then replaced
 * by {@code ?} in order, so a parameter that appears twice is bound twice. Identifiers are always quoted.
 */
public final class StatementWriter {
    private static final String PREFIX = "$tqp";
    private static final Pattern NAMED = Pattern.compile(Pattern.quote(PREFIX) + "(\\d+)");

    /** The kinds of value a statement over many rows takes from each row: the others it binds once. */
    private static final Set<Param.Kind> PER_ROW = EnumSet.of(Param.Kind.ID, Param.Kind.NOW, Param.Kind.RETRY_AT,
            Param.Kind.DELAY, Param.Kind.LEASE_HELD, Param.Kind.LAST_ERROR);

    private final DSLContext dsl;
    private final List<Param> declared = new ArrayList<>();
    /** Null for a statement of one row; else where each row's values are read from. */
    private final RowColumns rows;
    private final List<Param> perRow = new ArrayList<>();
    private final List<DataType<?>> perRowTypes = new ArrayList<>();
    /** The limit written into the text in place of its placeholder, or -1 where the limit is bound. */
    private final int writtenLimit;

    /**
     * Where a statement over many rows reads the {@code index}-th value of each row: a column of the table of
     * rows the statement binds as data, in {@code type}.
     */
    @FunctionalInterface
    public interface RowColumns {
        <T> Field<T> column(int index, DataType<T> type);
    }

    public StatementWriter(DSLContext dsl) {
        this(dsl, null);
    }

    private StatementWriter(DSLContext dsl, RowColumns rows) {
        this(dsl, rows, -1);
    }

    private StatementWriter(DSLContext dsl, RowColumns rows, int writtenLimit) {
        this.dsl = dsl;
        this.rows = rows;
        this.writtenLimit = writtenLimit;
    }

    /**
     * A writer of the same statement with {@code limit} written into its text where it would bind {@link
     * Param.Kind#LIMIT}: for a server that plans a statement better when it sees its limit.
     */
    public StatementWriter withLimitWritten(int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("a limit of " + limit + " rows");
        }
        return new StatementWriter(dsl, rows, limit);
    }

    /**
     * A writer of a statement over many rows: each value a row has of its own (its id, its times, its lease
     * token, its last error) is read from {@code rows}' columns in place of a placeholder, and
     * {@link #perRow()} lists them; the others are bound once.
     */
    public static StatementWriter ofRows(DSLContext dsl, RowColumns rows) {
        return new StatementWriter(dsl, rows);
    }

    /** Whether this writes a statement over many rows ({@link #ofRows}). */
    public boolean ofRows() {
        return rows != null;
    }

    /** The values each row carries, in the order of their columns ({@link #ofRows}). */
    public List<Param> perRow() {
        return List.copyOf(perRow);
    }

    /** The types of {@link #perRow()}'s values, as the statement reads them. */
    public List<DataType<?>> perRowTypes() {
        return List.copyOf(perRowTypes);
    }

    /** The settings every dialect renders with. */
    public static Settings settings() {
        return new Settings()
                .withRenderNamedParamPrefix(PREFIX)
                .withRenderQuotedNames(RenderQuotedNames.ALWAYS)
                .withRenderFormatted(false);
    }

    /** The context statements are built with. */
    public DSLContext dsl() {
        return dsl;
    }

    /**
     * A placeholder for {@code param}, typed as {@code type} for jOOQ's API; in a statement over many rows, a
     * value each row has of its own is read from the rows' table instead, and a limit written into the text
     * ({@link #withLimitWritten}) is that number.
     */
    public <T> Field<T> bind(Param param, DataType<T> type) {
        if (writtenLimit >= 0 && param.kind() == Param.Kind.LIMIT) {
            return DSL.inline(writtenLimit, type);
        }
        if (rows != null && PER_ROW.contains(param.kind())) {
            int index = perRow.indexOf(param);
            if (index < 0) {
                index = perRow.size();
                perRow.add(param);
                perRowTypes.add(type);
            }
            return rows.column(index, type);
        }
        String name = Integer.toString(declared.size());
        declared.add(param);
        return DSL.param(name, type);
    }

    /** A placeholder for {@code param}, typed as {@code like}'s column. */
    public <T> Field<T> bind(Param param, Field<T> like) {
        return bind(param, like.getDataType());
    }

    /** A placeholder for a text value. */
    public Field<String> text(Param param) {
        return bind(param, SQLDataType.VARCHAR);
    }

    /** A placeholder for an integer value. */
    public Field<Integer> integer(Param param) {
        return bind(param, SQLDataType.INTEGER);
    }

    /** Renders {@code part} as the statement for {@code purpose}. */
    public Statement statement(String purpose, QueryPart part) {
        return fromNamed(purpose, dsl.renderNamedParams(part));
    }

    /**
     * Turns text with named placeholders (as {@link #render} writes them) into a statement: for a
     * statement whose final text the dialect writes itself around jOOQ-rendered pieces.
     */
    public Statement fromNamed(String purpose, String named) {
        Matcher m = NAMED.matcher(named);
        StringBuilder sql = new StringBuilder(named.length());
        List<Param> params = new ArrayList<>();
        while (m.find()) {
            params.add(declared.get(Integer.parseInt(m.group(1))));
            m.appendReplacement(sql, "?");
        }
        m.appendTail(sql);
        return new Statement(purpose, sql.toString(), params);
    }

    /** The named placeholder text of a field from {@link #bind}, for text a dialect writes itself. */
    public String render(QueryPart part) {
        return dsl.renderNamedParams(part);
    }
}
