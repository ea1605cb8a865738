/**
 * tablequeue's toolkit: role bindings ({@code dev.tablequeue.binding}), the dialect SPI and the built-in
 * dialects ({@code dev.tablequeue.dialect}), the broker, publisher and queue admin
 * ({@code dev.tablequeue.broker}), the transport middleware SPI ({@code dev.tablequeue.transport}), and the
 * exceptions ({@code dev.tablequeue}). The settable clock and the test helpers are the test kit's
 * ({@code tablequeue-test}, module {@code dev.tablequeue.test}).
 *
 * <p>{@code dev.tablequeue.internal} holds what the runtime runs statements with (their binds, the JDBC
 * calls, the writer the built-in dialects render with, SQLite's key registry): it is not exported, but to
 * the outbox, which runs its record statements the same way, and to the contract suites
 * ({@code tablequeue-contract}), which run a dialect's statements through the runtime's own claim steps.
 */
// the outbox's and the contract suites' jars name their modules (dev.tablequeue.outbox, dev.tablequeue.contract),
// outside this build's module path; pgjdbc, required static for LISTEN/NOTIFY, is an automatic module
@SuppressWarnings({"module", "requires-automatic"})
module dev.tablequeue {
    requires transitive java.sql;
    requires transitive org.jooq;
    requires transitive com.fasterxml.jackson.databind;
    requires org.slf4j;
    // the JSON Schema of a payload type in the AsyncAPI document
    requires com.github.victools.jsonschema.generator;
    // recurring jobs' cron expressions
    requires com.cronutils;
    requires com.github.victools.jsonschema.module.jackson;
    // LISTEN/NOTIFY reads notifications through pgjdbc's API; a service on PostgreSQL has the driver
    requires static org.postgresql.jdbc;

    exports dev.tablequeue;
    exports dev.tablequeue.binding;
    exports dev.tablequeue.broker;
    exports dev.tablequeue.dialect;
    exports dev.tablequeue.transport;
    exports dev.tablequeue.internal to dev.tablequeue.outbox, dev.tablequeue.contract;

    uses dev.tablequeue.dialect.QueueDialectProvider;

    provides dev.tablequeue.dialect.QueueDialectProvider with dev.tablequeue.dialect.BuiltInDialects;
}
