package dev.tablequeue.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tablequeue.BindingException;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.jooq.Record;
import org.jooq.TableField;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jooq.impl.TableImpl;
import org.junit.jupiter.api.Test;

/** The rules of an outbox binding and of the registry, each refused with the table (or the name) and the rule. */
class OutboxBindingTest {
    private static final RecordTable T = new RecordTable("outbox", SQLDataType.TIMESTAMPWITHTIMEZONE(6));

    /** A table of the wrong types: an id that cannot travel as text, an integer payload, a numeric headers column. */
    static final class Odd extends TableImpl<Record> {
        private static final long serialVersionUID = 1L;
        final TableField<Record, Double> ID = createField(DSL.name("id"), SQLDataType.DOUBLE, this, "");
        final TableField<Record, String> NAME = createField(DSL.name("name"), SQLDataType.VARCHAR, this, "");
        final TableField<Record, Integer> PAYLOAD = createField(DSL.name("payload"), SQLDataType.INTEGER, this, "");
        final TableField<Record, Integer> HEADERS = createField(DSL.name("headers"), SQLDataType.INTEGER, this, "");

        Odd() {
            super(DSL.name("odd"));
        }
    }

    /** A pool that must not be touched. */
    static final DataSource UNREACHABLE = new DataSource() {
        @Override
        public Connection getConnection() throws SQLException {
            throw new SQLException("the test touched the database");
        }

        @Override
        public Connection getConnection(String u, String p) throws SQLException {
            return getConnection();
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {}

        @Override
        public void setLoginTimeout(int seconds) {}

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public Logger getParentLogger() {
            return Logger.getGlobal();
        }

        @Override
        public <X> X unwrap(Class<X> iface) {
            return null;
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) {
            return false;
        }
    };

    @Test
    void a_binding_of_every_column_builds_and_reports_its_roles() {
        OutboxBinding<Record> b = T.binding();
        assertThat(b.tableName()).isEqualTo("outbox");
        assertThat(b.headers()).contains(T.HEADERS);
        assertThat(b.processedAt()).isPresent();
        assertThat(b.lease()).isPresent();
    }

    @Test
    void the_types_a_record_cannot_carry_are_refused_naming_the_table_and_each_rule() {
        Odd odd = new Odd();
        assertThatThrownBy(() -> OutboxBinding.of(odd, odd.ID, odd.NAME, odd.PAYLOAD).headers(odd.HEADERS).build())
                .isInstanceOf(BindingException.class)
                .hasMessageContaining("binding of table \"odd\"")
                .hasMessageContaining("id column \"id\" must hold Long, Integer, String or UUID")
                .hasMessageContaining("payload column \"payload\" must hold byte[], String, JSON or JSONB, not Integer")
                .hasMessageContaining("headers column \"headers\" must hold String, JSON or JSONB, not Integer");
    }

    @Test
    void a_column_playing_two_roles_is_refused() {
        assertThatThrownBy(() -> OutboxBinding.of(T, T.ID, T.NAME, T.PAYLOAD).headers(T.NAME).build())
                .isInstanceOf(BindingException.class)
                .hasMessageContaining("column \"name\" plays two roles: name and headers");
    }

    @Test
    void a_column_of_another_table_is_refused() {
        RecordTable other = new RecordTable("elsewhere", SQLDataType.TIMESTAMPWITHTIMEZONE(6));
        assertThatThrownBy(() -> OutboxBinding.of(T, T.ID, T.NAME, T.PAYLOAD).headers(other.HEADERS).build())
                .isInstanceOf(BindingException.class)
                .hasMessageContaining("column \"headers\" (headers) is not a column of the table but of \"elsewhere\"");
    }

    @Test
    void a_setting_made_twice_and_an_event_declared_with_the_wrong_setting_are_refused() {
        assertThatThrownBy(() -> OutboxBinding.of(T, T.ID, T.NAME, T.PAYLOAD).processedAt(T.PROCESSED_AT)
                .processedAt(T.LOCKED_UNTIL).own(OutboxEvent.FETCH, (ctx, id) -> { }).build())
                .isInstanceOf(BindingException.class)
                .hasMessageContaining("processedAt(..) is set twice")
                .hasMessageContaining("own(FETCH, ..) takes a settlement");
    }

    @Test
    void a_name_registered_twice_fails_when_the_registry_is_built_naming_it() {
        Outbox.Builder b = Outbox.builder(UNREACHABLE).register("orders", T.binding()).register("audit", T.binding())
                .track(() -> "orders", T.binding());
        assertThatThrownBy(b::build).isInstanceOf(OutboxException.class)
                .hasMessageContaining("\"orders\" registered twice");
    }

    @Test
    void the_periodic_republish_needs_a_lease_column_and_the_sweep_needs_processed_at() {
        OutboxBinding<Record> bare = OutboxBinding.of(T, T.ID, T.NAME, T.PAYLOAD).build();
        assertThatThrownBy(() -> Outbox.builder(UNREACHABLE).register("orders", bare)
                .republishAfter(Duration.ofMinutes(1)).build())
                .isInstanceOf(BindingException.class)
                .hasMessageContaining("binding of table \"outbox\"")
                .hasMessageContaining("needs a lease column (locked_until");
        assertThatThrownBy(() -> Outbox.builder(UNREACHABLE).register("orders", bare)
                .retainProcessed(Duration.ofDays(7)).build())
                .isInstanceOf(BindingException.class)
                .hasMessageContaining("needs processed_at");
    }

    @Test
    void settings_are_checked_as_they_are_made() {
        assertThatThrownBy(() -> Outbox.builder(UNREACHABLE).republishAfter(Duration.ZERO))
                .hasMessageContaining("republishAfter must be positive");
        assertThatThrownBy(() -> Outbox.builder(UNREACHABLE).republishEvery(Duration.ofSeconds(1)).build())
                .hasMessageContaining("republishAfter(..), which is not set");
    }

    @Test
    void under_the_test_kit_the_outbox_is_off_unless_the_variable_turns_it_on() {
        assertThat(OutboxSwitch.enabled(null, null)).isTrue();
        assertThat(OutboxSwitch.enabled("true", null)).isFalse();
        assertThat(OutboxSwitch.enabled("true", "on")).isTrue();
        assertThat(OutboxSwitch.enabled("false", null)).isTrue();
    }

    @Test
    void an_outbox_that_is_off_touches_no_database_passes_every_message_and_republishes_nothing() throws Exception {
        Outbox off = Outbox.builder(UNREACHABLE).register("orders", T.binding()).enabled(false).build();
        assertThat(off.enabled()).isFalse();
        java.util.List<String> sent = new java.util.ArrayList<>();
        var message = new Envelope("orders", new byte[] {1}, java.util.Map.of(), new dev.tablequeue.broker.JacksonCodec(),
                null);
        off.publishMiddleware().publish(message, m -> sent.add(m.name()));
        assertThat(sent).containsExactly("orders");
        assertThat(message.headers()).doesNotContainKey(Outbox.ID_HEADER);
        assertThat(off.handlerMiddleware().handle("orders", null, dev.tablequeue.broker.Outcome::ack))
                .isEqualTo(dev.tablequeue.broker.Outcome.ack());
        assertThat(off.republish((n, p, h) -> sent.add("again " + n))).isZero();
        assertThat(sent).containsExactly("orders");
    }

    @Test
    void the_switch_read_from_the_process_turns_the_outbox_off_under_the_test_kit() {
        String before = System.getProperty(OutboxSwitch.TEST_KIT_PROPERTY);
        System.setProperty(OutboxSwitch.TEST_KIT_PROPERTY, "true");
        try {
            assumeVariableUnset();
            Outbox off = Outbox.builder(UNREACHABLE).register("orders", T.binding()).build();
            assertThat(off.enabled()).isFalse();
        } finally {
            if (before == null) {
                System.clearProperty(OutboxSwitch.TEST_KIT_PROPERTY);
            } else {
                System.setProperty(OutboxSwitch.TEST_KIT_PROPERTY, before);
            }
        }
    }

    private static void assumeVariableUnset() {
        org.junit.jupiter.api.Assumptions.assumeFalse("on".equalsIgnoreCase(System.getenv(OutboxSwitch.VARIABLE)),
                "TABLEQUEUE_OUTBOX=on turns the outbox on in this process");
    }
}
