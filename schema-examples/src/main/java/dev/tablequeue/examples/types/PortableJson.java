package dev.tablequeue.examples.types;

import org.jooq.Converter;
import org.jooq.JSONB;
import org.jooq.SQLDialect;
import org.jooq.impl.SQLDataType;

/**
 * The example tables' JSON columns (the outbox's headers) as {@link JSONB}, on every database: a
 * {@code JSONB} on PostgreSQL, and text elsewhere (MariaDB's {@code JSON} is a checked {@code LONGTEXT},
 * SQLite keeps {@code TEXT}). The generator declares such columns {@code JSONB} with this binding.
 */
public final class PortableJson extends PortableBinding<JSONB> {
    private static final long serialVersionUID = 1L;

    private static final Kept<JSONB, JSONB> NATIVE = Kept.of(SQLDataType.JSONB,
            Converter.ofNullable(JSONB.class, JSONB.class, j -> j, j -> j));

    private static final Kept<String, JSONB> TEXT = Kept.of(SQLDataType.VARCHAR,
            Converter.ofNullable(String.class, JSONB.class, JSONB::valueOf, JSONB::data));

    public PortableJson() {
        super(JSONB.class);
    }

    @Override
    Kept<?, JSONB> kept(SQLDialect family) {
        return family == SQLDialect.POSTGRES ? NATIVE : TEXT;
    }
}
