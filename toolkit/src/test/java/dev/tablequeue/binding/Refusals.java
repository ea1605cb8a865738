package dev.tablequeue.binding;

import dev.tablequeue.BindingException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.List;

/** Assertions on a refused binding: the exception, the table it names and the rules it states. */
final class Refusals {
    private Refusals() {}

    /**
     * Builds {@code builder}, expects a {@link BindingException} for {@code table}, and returns the rules its
     * message states, one element per broken rule.
     */
    static List<String> rules(RoleBinding.Builder<?> builder, String table) {
        Throwable thrown = catchThrowable(builder::build);
        assertThat(thrown).as("build() refuses the declaration").isInstanceOf(BindingException.class);
        BindingException refusal = (BindingException) thrown;
        assertThat(refusal.table()).isEqualTo(table);
        String prefix = "binding of table \"" + table + "\": ";
        assertThat(refusal.getMessage()).startsWith(prefix);
        // build() joins the rules it finds with "; ", and no rule's own text holds one.
        return List.of(refusal.getMessage().substring(prefix.length()).split("; "));
    }

    /** Expects the declaration refused for exactly one rule, whose text contains every fragment. */
    static void refusedFor(RoleBinding.Builder<?> builder, String table, String... fragments) {
        assertThat(rules(builder, table)).singleElement().asString().contains(fragments);
    }
}
