package dev.tablequeue.examples.types;

import java.sql.SQLException;
import org.jooq.Binding;
import org.jooq.BindingGetResultSetContext;
import org.jooq.BindingGetSQLInputContext;
import org.jooq.BindingGetStatementContext;
import org.jooq.BindingRegisterContext;
import org.jooq.BindingSQLContext;
import org.jooq.BindingSetSQLOutputContext;
import org.jooq.BindingSetStatementContext;
import org.jooq.Converter;
import org.jooq.SQLDialect;
import org.jooq.Scope;
import org.jooq.impl.DefaultBinding;

/**
 * A column type that one set of jOOQ classes carries on every database, each keeping it in a type of its own.
 *
 * <p>jOOQ binds a generated column through the binding of its type, and that binding belongs to one database:
 * PostgreSQL's {@code TIMESTAMPTZ} is not MariaDB's {@code DATETIME(6)} nor SQLite's text. This binding
 * hands every step (rendering a bind or an inline value, setting a statement's parameter, reading a result)
 * to jOOQ's own binding of the type the database at hand keeps, through a converter between that type and
 * the one Java type the classes declare. The database is the family of the step's scope (its
 * {@code DSLContext}'s dialect), so the same record writes and reads on each.
 *
 * @param <U> the Java type the classes declare
 */
abstract class PortableBinding<U> implements Binding<U, U> {
    private static final long serialVersionUID = 1L;

    /** How one database keeps the value: jOOQ's binding of its type, and the converter to the declared type. */
    record Kept<T, U>(Binding<T, T> binding, Converter<T, U> converter) {
        static <T, U> Kept<T, U> of(org.jooq.DataType<T> type, Converter<T, U> converter) {
            return new Kept<>(DefaultBinding.binding(type), converter);
        }
    }

    private final Converter<U, U> identity;

    PortableBinding(Class<U> type) {
        this.identity = Converter.ofNullable(type, type, u -> u, u -> u);
    }

    /** How the database of {@code family} keeps the value. */
    abstract Kept<?, U> kept(SQLDialect family);

    private Kept<?, U> kept(Scope scope) {
        return kept(scope.family());
    }

    @Override
    public final Converter<U, U> converter() {
        return identity;
    }

    @Override
    public final void sql(BindingSQLContext<U> ctx) throws SQLException {
        sql(kept(ctx), ctx);
    }

    private static <T, U> void sql(Kept<T, U> kept, BindingSQLContext<U> ctx) throws SQLException {
        kept.binding().sql(ctx.convert(kept.converter()));
    }

    @Override
    public final void register(BindingRegisterContext<U> ctx) throws SQLException {
        register(kept(ctx), ctx);
    }

    private static <T, U> void register(Kept<T, U> kept, BindingRegisterContext<U> ctx) throws SQLException {
        kept.binding().register(ctx.convert(kept.converter()));
    }

    @Override
    public final void set(BindingSetStatementContext<U> ctx) throws SQLException {
        set(kept(ctx), ctx);
    }

    private static <T, U> void set(Kept<T, U> kept, BindingSetStatementContext<U> ctx) throws SQLException {
        kept.binding().set(ctx.convert(kept.converter()));
    }

    @Override
    public final void set(BindingSetSQLOutputContext<U> ctx) throws SQLException {
        set(kept(ctx), ctx);
    }

    private static <T, U> void set(Kept<T, U> kept, BindingSetSQLOutputContext<U> ctx) throws SQLException {
        kept.binding().set(ctx.convert(kept.converter()));
    }

    @Override
    public final void get(BindingGetResultSetContext<U> ctx) throws SQLException {
        get(kept(ctx), ctx);
    }

    private static <T, U> void get(Kept<T, U> kept, BindingGetResultSetContext<U> ctx) throws SQLException {
        kept.binding().get(ctx.convert(kept.converter()));
    }

    @Override
    public final void get(BindingGetStatementContext<U> ctx) throws SQLException {
        get(kept(ctx), ctx);
    }

    private static <T, U> void get(Kept<T, U> kept, BindingGetStatementContext<U> ctx) throws SQLException {
        kept.binding().get(ctx.convert(kept.converter()));
    }

    @Override
    public final void get(BindingGetSQLInputContext<U> ctx) throws SQLException {
        get(kept(ctx), ctx);
    }

    private static <T, U> void get(Kept<T, U> kept, BindingGetSQLInputContext<U> ctx) throws SQLException {
        kept.binding().get(ctx.convert(kept.converter()));
    }
}
