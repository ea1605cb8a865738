package dev.tablequeue.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.tablequeue.outbox.Outbox;
import dev.tablequeue.outbox.OutboxBinding;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.TableQueueDatabase;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Under the kit the outbox is off: it needs no record table, and tracks nothing. Here, not in the kit's own
 * tests, since the outbox's tests use the kit (its settable clock).
 */
class OutboxUnderTheKitIT {
    @RegisterExtension
    static final TableQueueDatabase DB = TableQueueDatabase.on(Engine.SQLITE).build();

    /**
     * The kit set the property for the whole JVM, and the other suites of this module (the outbox
     * example of docs/outbox.md) run in the same one with the outbox on.
     */
    @AfterAll
    static void outboxOnAgainForTheOtherSuites() {
        System.clearProperty(TableQueueDatabase.TEST_KIT_PROPERTY);
    }

    @Test
    void an_outbox_built_under_the_kit_is_off_and_needs_no_record_table() {
        assumeFalse("on".equalsIgnoreCase(System.getenv("TABLEQUEUE_OUTBOX")), "TABLEQUEUE_OUTBOX=on turns it on");
        // a record table the fresh database does not have: an outbox that tracked would refuse it at build()
        Table<Record> missing = DSL.table(DSL.name("no_such_outbox"));
        OutboxBinding<Record> binding = OutboxBinding.of(missing,
                DSL.field(DSL.name("no_such_outbox", "id"), SQLDataType.BIGINT),
                DSL.field(DSL.name("no_such_outbox", "name"), SQLDataType.VARCHAR(100)),
                DSL.field(DSL.name("no_such_outbox", "payload"), SQLDataType.BLOB)).build();

        Outbox outbox = Outbox.builder(DB.dataSource()).register("orders", binding).build();

        assertThat(outbox.enabled()).isFalse();
    }
}
