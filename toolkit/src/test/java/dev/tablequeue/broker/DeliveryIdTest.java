package dev.tablequeue.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.OptionalInt;
import java.util.UUID;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.junit.jupiter.api.Test;

/** The default {@link Delivery#id(Field)}, which the transports other than a queue table use. */
class DeliveryIdTest {
    private static Delivery carrying(Object id) {
        return new Delivery() {
            @Override
            public Object id() {
                return id;
            }

            @Override
            public String queue() {
                return "q";
            }

            @Override
            public OptionalInt attempt() {
                return OptionalInt.empty();
            }

            @Override
            public Map<String, String> headers() {
                return Map.of();
            }

            @Override
            public Object partitionKey() {
                return null;
            }

            @Override
            public DSLContext db() {
                return null;
            }
        };
    }

    @Test
    void an_id_is_converted_to_the_type_of_the_column_it_is_read_for() {
        Field<Long> bigint = DSL.field(DSL.name("id"), SQLDataType.BIGINT);
        Field<UUID> uuid = DSL.field(DSL.name("id"), SQLDataType.UUID);

        assertThat(carrying("42").id(bigint)).isEqualTo(42L);
        assertThat(carrying(7).id(bigint)).isEqualTo(7L);
        UUID u = UUID.randomUUID();
        assertThat(carrying(u.toString()).id(uuid)).isEqualTo(u);
        assertThat(carrying(null).id(bigint)).isNull();
    }
}
