package dev.tablequeue.outbox.kafka;

import dev.tablequeue.dialect.SqliteTime;
import dev.tablequeue.test.Engine;
import java.time.temporal.Temporal;
import org.jooq.DataType;
import org.jooq.SQLDialect;
import org.jooq.impl.SQLDataType;

/**
 * What the Kafka suites need of each database: its server, its time type, and the DDL of the producer's record
 * table, the consumer's dedup table ({@link HandledTable}) and a table of the service's own data.
 */
enum KafkaDatabase {
    POSTGRES(Engine.POSTGRES, "timestamptz") {
        @Override
        DataType<? extends Temporal> timeType() {
            return SQLDataType.TIMESTAMPWITHTIMEZONE(6);
        }

        @Override
        String records(String name) {
            return "CREATE TABLE " + name + " (id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL, payload BYTEA NOT NULL,"
                    + " headers TEXT, processed_at TIMESTAMPTZ, locked_until TIMESTAMPTZ)";
        }
    },
    MARIADB(Engine.MARIADB, "datetime") {
        @Override
        DataType<? extends Temporal> timeType() {
            return SQLDataType.LOCALDATETIME(6);
        }

        @Override
        String records(String name) {
            return "CREATE TABLE " + name + " (id BIGINT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(191) NOT NULL,"
                    + " payload LONGBLOB NOT NULL, headers TEXT, processed_at DATETIME(6), locked_until DATETIME(6),"
                    + " INDEX (name, id))";
        }
    },
    SQLITE(Engine.SQLITE, "sqlite") {
        @Override
        DataType<? extends Temporal> timeType() {
            return SQLDataType.VARCHAR.asConvertedDataType(new SqliteTime());
        }

        @Override
        String records(String name) {
            return "CREATE TABLE " + name + " (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL,"
                    + " payload BLOB NOT NULL, headers TEXT, processed_at TEXT, locked_until TEXT)";
        }
    };

    private final Engine engine;
    private final String timeTypeName;

    KafkaDatabase(Engine engine, String timeTypeName) {
        this.engine = engine;
        this.timeTypeName = timeTypeName;
    }

    Engine engine() {
        return engine;
    }

    SQLDialect sqlDialect() {
        return engine.sqlDialect();
    }

    /** The time type's name, as a forked service ({@link DrillPublisher}) takes it. */
    String timeTypeName() {
        return timeTypeName;
    }

    /** The jOOQ type of a record table's time columns. */
    abstract DataType<? extends Temporal> timeType();

    /** The DDL of a {@link Records} table named {@code name}. */
    abstract String records(String name);

    /** The DDL of a dedup table named {@code name}, as {@link HandledTable} documents it (the same on each). */
    String handled(String name) {
        return "CREATE TABLE " + name + " (topic VARCHAR(249) NOT NULL, record_id VARCHAR(64) NOT NULL,"
                + " handled_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, PRIMARY KEY (topic, record_id))";
    }

    /** The DDL of a table of the service's own data, keyed by a short text ({@code n}). */
    String business(String name) {
        return "CREATE TABLE " + name + " (n VARCHAR(64) PRIMARY KEY)";
    }

    static KafkaDatabase ofTimeType(String name) {
        for (KafkaDatabase d : values()) {
            if (d.timeTypeName.equals(name)) {
                return d;
            }
        }
        throw new IllegalArgumentException(name);
    }
}
