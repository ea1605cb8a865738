package dev.tablequeue.docs;

import dev.tablequeue.binding.RoleBinding;
import dev.tablequeue.dialect.SqliteTime;
import java.util.Map;
import java.util.Set;
import org.jooq.DataType;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jooq.impl.TableImpl;

/**
 * The guide's {@code email_jobs} as the database describes it (jOOQ's {@code Meta} of the live table: its types,
 * nullability, defaults and identity), with the guide's forced types on SQLite: the time columns through
 * {@link SqliteTime}, the rowid as BIGINT. It is what jOOQ's generator gives a service, without generating.
 */
final class GuideTable extends TableImpl<Record> {
    private static final long serialVersionUID = 1L;
    private static final Set<String> TIMES = Set.of("retry_after", "processed_at", "locked_until");

    /**
     * @param defaults each column's default as the JDBC driver reports it, which replaces the {@code Meta} type's
     *     (jOOQ's MySQL {@code Meta} on MariaDB reads an expression default as none; its generator reads it)
     */
    GuideTable(Table<?> described, boolean sqlite, Map<String, String> defaults) {
        super(DSL.name(described.getName()));
        for (Field<?> f : described.fields()) {
            DataType<?> type = sqlite ? forced(f) : f.getDataType();
            String declared = defaults.get(f.getName());
            if (declared != null && !declared.equalsIgnoreCase("null")) {
                type = defaulted(type, declared);
            }
            add(f.getName(), type);
        }
    }

    private static <T> DataType<T> defaulted(DataType<T> type, String declared) {
        return type.defaultValue(DSL.field(DSL.raw(declared), type));
    }

    private <T> void add(String name, DataType<T> type) {
        createField(DSL.name(name), type, this, "");
    }

    private static DataType<?> forced(Field<?> f) {
        DataType<?> type = f.getDataType();
        if (TIMES.contains(f.getName())) {
            DataType<String> text = SQLDataType.VARCHAR.nullable(type.nullable());
            if (type.defaulted()) {
                text = text.defaultValue(DSL.field(SqliteTime.NOW_SQL, SQLDataType.VARCHAR));
            }
            return text.asConvertedDataType(new SqliteTime());
        }
        if (f.getName().equals("id")) {
            return SQLDataType.BIGINT.nullable(false).generatedByDefaultAsIdentity();
        }
        return type;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private Field column(String name) {
        Field<?> f = field(name);
        if (f == null) {
            throw new IllegalStateException("the guide's table has no column " + name + ": " + java.util.Arrays.toString(fields()));
        }
        return f;
    }

    /** The guide's binding builder: every role its table has, no form yet. */
    @SuppressWarnings("unchecked")
    RoleBinding.Builder<Record> emailJobs() {
        return RoleBinding.of(this, column("id"))
                .group(column("name"))
                .retryAfter(column("retry_after"))
                .attempt(column("attempt"))
                .processedAt(column("processed_at"))
                .headers(column("headers"))
                .payload(column("payload"))
                .lastError(column("last_error"));
    }

    @SuppressWarnings("unchecked")
    RoleBinding<Record> lease() {
        return emailJobs().lease(column("locked_until")).build();
    }
}
