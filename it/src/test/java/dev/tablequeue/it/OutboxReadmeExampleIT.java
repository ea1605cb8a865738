package dev.tablequeue.it;

import static dev.tablequeue.examples.jooq.Tables.ORDERS;
import static dev.tablequeue.examples.jooq.Tables.OUTBOX;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConnectionFactory;
import com.zaxxer.hikari.HikariDataSource;
import dev.tablequeue.broker.Outcome;
import dev.tablequeue.examples.jooq.tables.records.OutboxRecord;
import dev.tablequeue.outbox.Outbox;
import dev.tablequeue.outbox.OutboxBinding;
import dev.tablequeue.outbox.rabbitmq.RabbitTransport;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.FreshDatabase;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.jooq.impl.DefaultConfiguration;
import org.junit.jupiter.api.Test;

/**
 * The outbox example of docs/outbox.md, run as written on the example schema's PostgreSQL tables (orders, outbox) over
 * RabbitMQ: an order and its message in one transaction, the message sent after the commit. It lives in this
 * module, which comes last in the build, because the example schema's build runs tablequeue:check, which
 * checks outbox bindings too.
 */
class OutboxReadmeExampleIT {

    /** What the service publishes once an order is placed. */
    public record OrderPlaced(long id) {}

    // docs/outbox.md: the binding
    static final OutboxBinding<OutboxRecord> ORDERS_OUTBOX =
            OutboxBinding.of(OUTBOX, OUTBOX.ID, OUTBOX.NAME, OUTBOX.PAYLOAD)
                    .headers(OUTBOX.HEADERS)
                    .processedAt(OUTBOX.PROCESSED_AT)
                    .build();

    @Test
    void a_service_writes_an_order_and_its_message_in_one_transaction_and_the_message_reaches_rabbitmq()
            throws Exception {
        String exchange = FreshDatabase.prefix() + "readme_" + UUID.randomUUID().toString().substring(0, 8);
        try (FreshDatabase db = FreshDatabase.create(Engine.POSTGRES, "outbox_readme");
                HikariDataSource dataSource = db.pool(8)) {
            try (var c = dataSource.getConnection(); var s = c.createStatement()) {
                s.execute(new String(getClass().getResourceAsStream("/db/migration/postgresql/V1__example_queues.sql")
                        .readAllBytes(), StandardCharsets.UTF_8));
            }
            ConnectionFactory connectionFactory = rabbitMq();
            List<OrderPlaced> shipped = new CopyOnWriteArrayList<>();

            // docs/outbox.md: the example
            Outbox outbox = Outbox.builder(dataSource).register("orders", ORDERS_OUTBOX).build();
            RabbitTransport rabbit = RabbitTransport.builder(connectionFactory)
                    .exchange(exchange)
                    .publishMiddleware(outbox.publishMiddleware())
                    .handlerMiddleware(outbox.handlerMiddleware())
                    .build();
            try (Channel ch = rabbit.connection().createChannel()) {
                ch.exchangeDeclare(exchange, "direct");
                ch.queueDeclare(exchange + ".orders", false, false, false, null);
                ch.queueBind(exchange + ".orders", exchange, "orders");
            }
            rabbit.subscribe(exchange + ".orders", OrderPlaced.class, 4, (order, delivery) -> {
                shipped.add(order);
                return Outcome.ack();
            });
            outbox.start(rabbit::send);

            DSLContext dsl = DSL.using(new DefaultConfiguration().set(dataSource).set(SQLDialect.POSTGRES)
                    .set(outbox.transactionListener()));
            dsl.transaction(cfg -> {
                DSLContext tx = DSL.using(cfg);
                tx.insertInto(ORDERS).set(ORDERS.ID, 7L).set(ORDERS.CUSTOMER, "ada").set(ORDERS.TOTAL, 4200L)
                        .execute();
                rabbit.publish(tx, "orders", new OrderPlaced(7));
            });
            // docs/outbox.md: end

            try {
                await().atMost(Duration.ofSeconds(30)).until(() -> shipped.size() == 1
                        && dsl.fetchCount(OUTBOX, OUTBOX.PROCESSED_AT.isNotNull()) == 1);
                assertThat(shipped).containsExactly(new OrderPlaced(7));
                assertThat(dsl.fetchOne(OUTBOX).getHeaders()).isNotNull();
                assertThat(dsl.fetchCount(ORDERS)).isEqualTo(1);
            } finally {
                outbox.close();
                try (Channel ch = rabbit.connection().createChannel()) {
                    ch.queueDelete(exchange + ".orders");
                    ch.exchangeDelete(exchange);
                }
                rabbit.close();
            }
        }
    }

    /** The RabbitMQ server the outbox's tests use: 127.0.0.1:5672 unless TABLEQUEUE_RABBITMQ_HOST/PORT say. */
    private static ConnectionFactory rabbitMq() {
        ConnectionFactory f = new ConnectionFactory();
        String host = System.getenv("TABLEQUEUE_RABBITMQ_HOST");
        String port = System.getenv("TABLEQUEUE_RABBITMQ_PORT");
        f.setHost(host == null || host.isBlank() ? "127.0.0.1" : host);
        f.setPort(port == null || port.isBlank() ? 5672 : Integer.parseInt(port));
        f.setUsername("guest");
        f.setPassword("guest");
        return f;
    }
}
