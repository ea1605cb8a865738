package dev.tablequeue.spring;

import dev.tablequeue.outbox.OutboxBinding;
import dev.tablequeue.test.Engine;
import org.jooq.Record;
import org.jooq.TableField;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jooq.impl.TableImpl;

/** The outbox suite's record table, {@code order_outbox}, as jOOQ's generator describes it. */
final class OrderOutboxTable extends TableImpl<Record> {
    private static final long serialVersionUID = 1L;

    final TableField<Record, Long> ID;
    final TableField<Record, String> NAME;
    final TableField<Record, byte[]> PAYLOAD;
    final TableField<Record, String> HEADERS;

    /** An identity id; identity(true), not generatedByDefaultAsIdentity() (jOOQ 3.20+), so it runs on jOOQ 3.19 too. */
    @SuppressWarnings("removal")
    OrderOutboxTable() {
        super(DSL.name("order_outbox"));
        ID = createField(DSL.name("id"), SQLDataType.BIGINT.nullable(false).identity(true), this, "");
        NAME = createField(DSL.name("name"), SQLDataType.VARCHAR(191).nullable(false), this, "");
        PAYLOAD = createField(DSL.name("payload"), SQLDataType.BLOB.nullable(false), this, "");
        HEADERS = createField(DSL.name("headers"), SQLDataType.CLOB, this, "");
    }

    /** The binding: id, name, payload and headers; without processed_at, a processed record is deleted. */
    OutboxBinding<Record> binding() {
        return OutboxBinding.of(this, ID, NAME, PAYLOAD).headers(HEADERS).build();
    }

    /** The DDL of the table on {@code engine}. */
    static String ddl(Engine engine) {
        return switch (engine) {
            case POSTGRES -> "CREATE TABLE order_outbox (id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL,"
                    + " payload BYTEA NOT NULL, headers TEXT)";
            case MARIADB -> "CREATE TABLE order_outbox (id BIGINT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(191) NOT NULL,"
                    + " payload LONGBLOB NOT NULL, headers LONGTEXT)";
            case SQLITE -> "CREATE TABLE order_outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL,"
                    + " payload BLOB NOT NULL, headers TEXT)";
            default -> throw new IllegalArgumentException("the outbox suite runs on PostgreSQL, MariaDB and SQLite, not "
                    + engine);
        };
    }
}
