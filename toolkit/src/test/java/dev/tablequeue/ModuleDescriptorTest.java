package dev.tablequeue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tablequeue.broker.QueueBroker;
import dev.tablequeue.dialect.QueueDialectProvider;
import java.lang.module.ModuleDescriptor;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The toolkit's module exports its API packages alone, and provides the built-in dialects to detection. */
class ModuleDescriptorTest {

    private static ModuleDescriptor descriptor() {
        Module module = QueueBroker.class.getModule();
        assumeTrue(module.isNamed(), "the tests run on the class path, where the toolkit's module is not named");
        return module.getDescriptor();
    }

    @Test
    void the_api_packages_are_exported_and_the_internal_one_only_to_the_outbox_and_the_contract_suites() {
        Map<String, Set<String>> exports = descriptor().exports().stream()
                .collect(Collectors.toMap(ModuleDescriptor.Exports::source, ModuleDescriptor.Exports::targets));
        assertThat(exports).containsOnlyKeys("dev.tablequeue", "dev.tablequeue.binding", "dev.tablequeue.broker",
                "dev.tablequeue.dialect", "dev.tablequeue.transport", "dev.tablequeue.internal");
        assertThat(exports.get("dev.tablequeue.internal"))
                .containsExactlyInAnyOrder("dev.tablequeue.outbox", "dev.tablequeue.contract");
        assertThat(exports.get("dev.tablequeue.broker")).isEmpty();
    }

    @Test
    void the_module_provides_the_built_in_dialects_to_the_detection_it_uses() {
        ModuleDescriptor d = descriptor();
        assertThat(d.uses()).containsExactly(QueueDialectProvider.class.getName());
        assertThat(d.provides()).singleElement().satisfies(p -> {
            assertThat(p.service()).isEqualTo(QueueDialectProvider.class.getName());
            assertThat(p.providers()).containsExactly("dev.tablequeue.dialect.BuiltInDialects");
        });
    }
}
