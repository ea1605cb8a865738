package dev.tablequeue.opentelemetry;

import dev.tablequeue.dialect.SqliteTime;
import dev.tablequeue.test.Engine;
import java.time.temporal.Temporal;
import org.jooq.DataType;
import org.jooq.impl.SQLDataType;

/** What the tracing suite needs of each database: its server, its time type, and the DDL of its queue tables. */
enum TraceDatabase {
    POSTGRES(Engine.POSTGRES) {
        @Override
        DataType<? extends Temporal> timeType() {
            return SQLDataType.TIMESTAMPWITHTIMEZONE(6);
        }

        @Override
        String queueTable(String name, HeaderLayout layout) {
            return "CREATE TABLE " + name + " (id BIGSERIAL PRIMARY KEY, grp TEXT NOT NULL,"
                    + " retry_after TIMESTAMPTZ NOT NULL DEFAULT now(), attempt INT NOT NULL DEFAULT 1,"
                    + " processed_at TIMESTAMPTZ, locked_until TIMESTAMPTZ" + headers(layout, "TEXT")
                    + ", payload BYTEA)";
        }

        @Override
        String recordTable(String name) {
            return "CREATE TABLE " + name + " (id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL, payload BYTEA NOT NULL,"
                    + " headers TEXT, processed_at TIMESTAMPTZ, locked_until TIMESTAMPTZ)";
        }
    },
    MARIADB(Engine.MARIADB) {
        @Override
        DataType<? extends Temporal> timeType() {
            return SQLDataType.LOCALDATETIME(6);
        }

        @Override
        String queueTable(String name, HeaderLayout layout) {
            return "CREATE TABLE " + name + " (id BIGINT AUTO_INCREMENT PRIMARY KEY, grp VARCHAR(191) NOT NULL,"
                    + " retry_after DATETIME(6) NOT NULL DEFAULT (UTC_TIMESTAMP(6)), attempt INT NOT NULL DEFAULT 1,"
                    + " processed_at DATETIME(6), locked_until DATETIME(6)" + headers(layout, "TEXT")
                    + ", payload LONGBLOB, INDEX (grp, processed_at, retry_after, id))";
        }

        @Override
        String recordTable(String name) {
            return "CREATE TABLE " + name + " (id BIGINT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(191) NOT NULL,"
                    + " payload LONGBLOB NOT NULL, headers TEXT, processed_at DATETIME(6), locked_until DATETIME(6))";
        }
    },
    SQLITE(Engine.SQLITE) {
        @Override
        DataType<? extends Temporal> timeType() {
            return SQLDataType.VARCHAR.asConvertedDataType(new SqliteTime());
        }

        @Override
        String queueTable(String name, HeaderLayout layout) {
            return "CREATE TABLE " + name + " (id INTEGER PRIMARY KEY AUTOINCREMENT, grp TEXT NOT NULL,"
                    + " retry_after TEXT NOT NULL DEFAULT (" + SqliteTime.NOW_SQL + "),"
                    + " attempt INTEGER NOT NULL DEFAULT 1, processed_at TEXT, locked_until TEXT"
                    + headers(layout, "TEXT") + ", payload BLOB)";
        }

        @Override
        String recordTable(String name) {
            return "CREATE TABLE " + name + " (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL,"
                    + " payload BLOB NOT NULL, headers TEXT, processed_at TEXT, locked_until TEXT)";
        }
    };

    private final Engine engine;

    TraceDatabase(Engine engine) {
        this.engine = engine;
    }

    Engine engine() {
        return engine;
    }

    /** The Java type jOOQ's generated classes give a time column of this database. */
    abstract DataType<? extends Temporal> timeType();

    /** The DDL of a {@link TraceTable} named {@code name}, keeping its headers as {@code layout} says. */
    abstract String queueTable(String name, HeaderLayout layout);

    /** The DDL of an outbox record table named {@code name}. */
    abstract String recordTable(String name);

    private static String headers(HeaderLayout layout, String text) {
        return switch (layout) {
            case COLUMN -> ", headers " + text;
            case FIELDS -> ", traceparent " + text + ", tracestate " + text;
            case NONE -> "";
        };
    }
}
