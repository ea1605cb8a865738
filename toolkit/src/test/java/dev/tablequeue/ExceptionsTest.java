package dev.tablequeue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Every exception tablequeue throws has one root, and the refusals of a configuration and the failures of a settlement one parent each. */
class ExceptionsTest {

    @Test
    void a_configuration_that_cannot_serve_is_refused_with_a_configuration_exception() {
        List<Class<? extends TableQueueException>> refusals = List.of(BindingException.class, DialectException.class,
                DeclarationException.class, SchemaException.class, ServerTooOldException.class,
                AlreadySubscribedException.class);
        assertThat(refusals).allSatisfy(type -> assertThat(type.getSuperclass()).isEqualTo(ConfigurationException.class));
        assertThat(ConfigurationException.class.getSuperclass()).isEqualTo(TableQueueException.class);
    }

    @Test
    void an_outcome_not_written_fails_with_a_settlement_failure() {
        List<Class<? extends TableQueueException>> failures = List.of(SettlementException.class,
                LeaseLostException.class, BatchRolledBackException.class, OutcomeUnknownException.class);
        assertThat(failures).allSatisfy(type -> assertThat(type.getSuperclass())
                .isEqualTo(SettlementFailureException.class));
        assertThat(SettlementFailureException.class.getSuperclass()).isEqualTo(TableQueueException.class);
    }

    @Test
    void the_root_is_unchecked_and_the_rest_of_the_errors_are_its_own() {
        assertThat(RuntimeException.class).isAssignableFrom(TableQueueException.class);
        assertThat(List.of(BrokerClosedException.class, NoRouteException.class, HeaderException.class))
                .allSatisfy(type -> assertThat(type.getSuperclass()).isEqualTo(TableQueueException.class));
    }
}
