package dev.tablequeue.maven.checker;

import dev.tablequeue.binding.Role;
import java.util.EnumSet;
import java.util.Set;

/** The column types a role can carry: what the statements the toolkit builds compare, count and write. */
final class RoleTypes {
    private RoleTypes() {}

    /** The families {@code role}'s column may have on a database read by {@code schema}; null where any will do. */
    static Set<TypeFamily> allowed(Role role, SchemaDialect schema) {
        return switch (role) {
            case ID, PARTITION_KEY -> null;
            case GROUP -> EnumSet.of(TypeFamily.TEXT);
            case PRIORITY, ATTEMPT -> EnumSet.of(TypeFamily.INTEGER);
            case RETRY_AFTER, PROCESSED_AT, LEASE -> schema.timeFamilies();
            case HEADERS -> EnumSet.of(TypeFamily.TEXT, TypeFamily.JSON);
            case LAST_ERROR -> EnumSet.of(TypeFamily.TEXT);
            case UNIQUE_KEY -> null;
            case PAYLOAD -> EnumSet.of(TypeFamily.BINARY, TypeFamily.TEXT, TypeFamily.JSON);
        };
    }

    /** Whether {@code role}'s column must take NULL: a new row has no lease and is not processed. */
    static boolean nullable(Role role) {
        return role == Role.LEASE || role == Role.PROCESSED_AT;
    }

    /** "an integer or text", for messages. */
    static String describe(Set<TypeFamily> families) {
        return String.join(" or ", families.stream().sorted().map(TypeFamily::description).toList());
    }
}
