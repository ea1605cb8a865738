package com.example.orders;

import static dev.tablequeue.test.QueueAssertions.assertRow;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import dev.tablequeue.outbox.Outbox;
import dev.tablequeue.test.Engine;
import dev.tablequeue.test.FreshDatabase;
import dev.tablequeue.test.QueueWatch;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jooq.DSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The service as its {@code main} starts it, on a fresh PostgreSQL database of the test kit's (migrated by Boot's
 * Flyway), a Kafka broker of the test's own and the local RabbitMQ: an order's events reach both brokers once it
 * commits and never after a rollback, and its invoice is written through the handler's transaction, committed
 * with the job's acknowledgement or rolled back with it.
 */
class OrdersServiceTests {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    private static FreshDatabase db;
    private static KafkaBroker kafka;
    private static ConfigurableApplicationContext context;
    private static String mailsQueue;
    private static Connection rabbit;

    /** A ledger that refuses the first post of the amounts the test names, as an accounting system that is down. */
    static final class RefusingLedger implements Ledger {
        final Set<Long> refuseOnce = ConcurrentHashMap.newKeySet();
        final Map<Long, Integer> posts = new ConcurrentHashMap<>();

        @Override
        public void post(long orderId, long amountCents) {
            posts.merge(orderId, 1, Integer::sum);
            if (refuseOnce.remove(amountCents)) {
                throw new IllegalStateException("the ledger is down");
            }
        }
    }

    /** The test's ledger in place of the service's, and the test kit's watch on the broker (a BrokerListener bean). */
    @Configuration(proxyBeanMethods = false)
    static class TestBeans {
        @Bean
        @Primary
        RefusingLedger refusingLedger() {
            return new RefusingLedger();
        }

        @Bean
        QueueWatch queueWatch() {
            return new QueueWatch();
        }
    }

    @BeforeAll
    static void start() throws Exception {
        kafka = KafkaBroker.launch();   // starts beside the database and the service, which connect to it lazily
        db = FreshDatabase.create(Engine.POSTGRES, "orders");
        mailsQueue = "orders-test-mails-" + UUID.randomUUID();
        context = new SpringApplicationBuilder(OrdersApplication.class, TestBeans.class).run(
                "--spring.datasource.url=" + db.url(),
                "--orders.kafka.bootstrap-servers=" + kafka.bootstrap(),
                "--orders.mails-queue=" + mailsQueue,
                "--tablequeue.poll-interval=200ms");
        kafka.awaitStarted();
        kafka.createTopic(Queues.ORDER_PLACED, 3);
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(context.getEnvironment().getProperty("orders.rabbitmq.host"));
        factory.setPort(context.getEnvironment().getProperty("orders.rabbitmq.port", Integer.class));
        rabbit = factory.newConnection("orders-test");
    }

    @AfterAll
    static void stop() throws Exception {
        if (rabbit != null) {
            try (Channel channel = rabbit.createChannel()) {
                channel.queueDelete(mailsQueue);
            }
            rabbit.close();
        }
        if (context != null) {
            context.close();
        }
        if (kafka != null) {
            kafka.close();
        }
        if (db != null) {
            db.close();
        }
    }

    @Test
    void an_order_is_invoiced_in_the_jobs_transaction_and_announced_on_kafka_and_rabbitmq() throws Exception {
        assertThat(context.getBean(Outbox.class).enabled()).isTrue();
        long id = context.getBean(Orders.class).place("ada@example.com", 1250);

        // sent in Spring's afterCommit, on the thread that committed: both brokers confirmed before place returned
        List<ConsumerRecord<String, byte[]>> placed = kafkaMessages().stream()
                .filter(r -> r.key().equals(String.valueOf(id))).toList();
        assertThat(placed).hasSize(1);
        assertThat(JSON.readValue(placed.get(0).value(), OrderPlaced.class))
                .isEqualTo(new OrderPlaced(id, "ada@example.com", 1250));
        assertConfirmedRecord(header(placed.get(0), Outbox.ID_HEADER), Queues.ORDER_PLACED);

        List<GetResponse> mails = rabbitMessages().stream()
                .filter(m -> mail(m).orderId() == id).toList();
        assertThat(mails).hasSize(1);
        assertThat(mail(mails.get(0))).isEqualTo(new OrderMail(id, "ada@example.com"));
        assertConfirmedRecord(String.valueOf(mails.get(0).getProps().getHeaders().get(Outbox.ID_HEADER)), mailsQueue);

        long job = jobOf(id);
        QueueWatch.Settled settled = context.getBean(QueueWatch.class).awaitAcknowledged(job, WAIT);
        assertThat(settled.attempt()).isEqualTo(1);
        assertRow(dsl(), Queues.INVOICE_JOBS_BINDING, job).isProcessed();
        assertThat(dsl().fetchValue("SELECT amount_cents FROM invoices WHERE order_id = " + id)).isEqualTo(1250L);
    }

    @Test
    void a_rolled_back_order_writes_nothing_and_sends_nothing() throws Exception {
        Orders orders = context.getBean(Orders.class);
        // Orders.place joins the caller's transaction (propagation REQUIRED), which then rolls back
        context.getBean(TransactionTemplate.class).executeWithoutResult(status -> {
            orders.place("rolled-back@example.com", 999);
            status.setRollbackOnly();
        });
        orders.place("bob@example.com", 500);

        assertThat(kafkaMessages()).extracting(r -> JSON.readValue(r.value(), OrderPlaced.class).customer())
                .contains("bob@example.com").doesNotContain("rolled-back@example.com");
        assertThat(rabbitMessages()).extracting(m -> mail(m).customer())
                .contains("bob@example.com").doesNotContain("rolled-back@example.com");
        assertThat(count("SELECT count(*) FROM orders WHERE customer = 'rolled-back@example.com'")).isZero();
        assertThat(count("SELECT count(*) FROM order_events WHERE convert_from(payload, 'UTF8') LIKE '%rolled-back%'"))
                .isZero();
        assertThat(count("SELECT count(*) FROM invoice_jobs"
                + " WHERE convert_from(payload, 'UTF8')::jsonb ->> 'orderId' NOT IN (SELECT id::text FROM orders)"))
                .as("invoice jobs of no order").isZero();
    }

    @Test
    void an_invoice_the_ledger_refuses_is_rolled_back_with_the_delivery_and_the_job_comes_again() {
        RefusingLedger ledger = context.getBean(RefusingLedger.class);
        ledger.refuseOnce.add(4200L);
        long id = context.getBean(Orders.class).place("carol@example.com", 4200);

        long job = jobOf(id);
        QueueWatch.Settled settled = context.getBean(QueueWatch.class).awaitAcknowledged(job, WAIT);
        // the first attempt's @Transactional service wrote the invoice, then the ledger refused it: had that invoice
        // committed on a transaction of its own, the second attempt's insert would break the primary key and the
        // job would never be acknowledged
        assertThat(settled.attempt()).isEqualTo(2);
        assertThat(ledger.posts.get(id)).isEqualTo(2);
        assertThat(count("SELECT count(*) FROM invoices WHERE order_id = " + id)).isEqualTo(1);
        assertRow(dsl(), Queues.INVOICE_JOBS_BINDING, job).isProcessed();
    }

    private static DSLContext dsl() {
        return context.getBean(DSLContext.class);
    }

    private static long count(String sql) {
        return ((Number) dsl().fetchValue(sql)).longValue();
    }

    /** The id of order {@code orderId}'s invoicing job. */
    private static long jobOf(long orderId) {
        return ((Number) dsl().fetchValue("SELECT id FROM invoice_jobs"
                + " WHERE convert_from(payload, 'UTF8')::jsonb ->> 'orderId' = {0}", String.valueOf(orderId)))
                .longValue();
    }

    /** The outbox record {@code id} exists under {@code name} and is done: the broker confirmed its send. */
    private static void assertConfirmedRecord(String id, String name) {
        assertThat(dsl().fetchValue("SELECT name FROM order_events WHERE id = " + Long.parseLong(id))).isEqualTo(name);
        assertThat(dsl().fetchValue("SELECT processed_at FROM order_events WHERE id = " + Long.parseLong(id)))
                .as("record %s confirmed", id).isNotNull();
    }

    /** Every message on the order-placed topic, from the first offset to the last. */
    private static List<ConsumerRecord<String, byte[]>> kafkaMessages() {
        Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(Queues.ORDER_PLACED).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                assertThat(System.nanoTime()).as("read to the end of %s", end).isLessThan(deadline);
                consumer.poll(Duration.ofMillis(500)).forEach(records::add);
            }
        }
        return records;
    }

    /** Every message on the mails queue, taken off it. */
    private static List<GetResponse> rabbitMessages() throws IOException {
        List<GetResponse> messages = new ArrayList<>();
        try (Channel channel = rabbit.createChannel()) {
            for (GetResponse m = channel.basicGet(mailsQueue, true); m != null; m = channel.basicGet(mailsQueue, true)) {
                messages.add(m);
            }
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IOException(e);
        }
        return messages;
    }

    private static OrderMail mail(GetResponse message) {
        try {
            return JSON.readValue(message.getBody(), OrderMail.class);
        } catch (IOException e) {
            throw new AssertionError("not an order mail: " + new String(message.getBody(), StandardCharsets.UTF_8), e);
        }
    }

    private static String header(ConsumerRecord<String, byte[]> record, String name) {
        return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }
}
