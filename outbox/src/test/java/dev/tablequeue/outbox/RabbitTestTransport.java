package dev.tablequeue.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConnectionFactory;
import dev.tablequeue.broker.Handler;
import dev.tablequeue.broker.PublishResult;
import dev.tablequeue.outbox.rabbitmq.RabbitTransport;
import dev.tablequeue.test.FreshDatabase;
import dev.tablequeue.transport.PublishMiddleware;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Assumptions;

/**
 * RabbitMQ on 127.0.0.1:5672 (guest/guest, or {@code TABLEQUEUE_RABBITMQ_HOST}/{@code _PORT}): a direct exchange
 * of the test's own, named with the database prefix and a random suffix so two builds at once never share one,
 * and a queue per subscribed name bound to it; both are deleted when the transport closes.
 */
final class RabbitTestTransport implements TestTransport {
    static final Kind KIND = new Kind() {
        @Override
        public TestTransport open(Outbox outbox, List<PublishMiddleware> inner, DataSource pool,
                OutboxDatabase database, String suffix) {
            return new RabbitTestTransport(outbox, inner, Map.of());
        }

        @Override
        public String label() {
            return "rabbitmq";
        }
    };

    final String exchange;
    final String connectionName;
    private final RabbitTransport rabbit;
    private final Map<String, Object> queueArguments;
    private final List<String> queues = new ArrayList<>();

    RabbitTestTransport(Outbox outbox, List<PublishMiddleware> inner, Map<String, Object> queueArguments) {
        this(outbox, inner, queueArguments, FreshDatabase.prefix() + "x_" + UUID.randomUUID().toString().substring(0, 8));
    }

    RabbitTestTransport(Outbox outbox, List<PublishMiddleware> inner, Map<String, Object> queueArguments,
            String exchange) {
        this.exchange = exchange;
        this.connectionName = exchange + "-conn";
        this.queueArguments = queueArguments;
        RabbitTransport.Builder b = RabbitTransport.builder(factory()).exchange(exchange)
                .connectionName(connectionName).confirmTimeout(Duration.ofSeconds(5))
                .publishMiddleware(outbox.publishMiddleware());
        inner.forEach(b::publishMiddleware);
        RabbitTransport built;
        try {
            built = b.handlerMiddleware(outbox.handlerMiddleware()).build();
        } catch (RuntimeException e) {
            if (FreshDatabase.liveRequired()) {
                throw new IllegalStateException("RabbitMQ is not reachable (TABLEQUEUE_REQUIRE_LIVE=1)", e);
            }
            Assumptions.abort("RabbitMQ is not reachable: " + e.getMessage());
            throw e;
        }
        this.rabbit = built;
        withChannel(ch -> ch.exchangeDeclare(exchange, "direct", false, false, null));
    }

    static ConnectionFactory factory() {
        ConnectionFactory f = new ConnectionFactory();
        f.setHost(env("TABLEQUEUE_RABBITMQ_HOST", "127.0.0.1"));
        f.setPort(Integer.parseInt(env("TABLEQUEUE_RABBITMQ_PORT", "5672")));
        f.setUsername("guest");
        f.setPassword("guest");
        f.setNetworkRecoveryInterval(200);
        return f;
    }

    /** Runs {@code rabbitmqctl -q} with {@code args} on this machine's broker; its output. */
    static String rabbitmqctl(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("rabbitmqctl", "-q"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("rabbitmqctl %s ends", List.of(args)).isTrue();
        assertThat(p.exitValue()).as("rabbitmqctl %s: %s", List.of(args), out).isZero();
        return out;
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }

    interface OnChannel {
        void run(Channel channel) throws IOException;
    }

    /**
     * Runs {@code work} on a connection of its own, without recovery: the topology it declares outlives a
     * closed connection, and the transport's recovery need not declare it again.
     */
    void withChannel(OnChannel work) {
        ConnectionFactory f = factory();
        f.setAutomaticRecoveryEnabled(false);
        try (var admin = f.newConnection(connectionName + "-admin"); Channel ch = admin.createChannel()) {
            work.run(ch);
        } catch (IOException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The messages waiting in the queue of {@code name} (not those in a consumer's hands). */
    long ready(String name) {
        long[] count = new long[1];
        withChannel(ch -> count[0] = ch.queueDeclarePassive(queueOf(name)).getMessageCount());
        return count[0];
    }

    String queueOf(String name) {
        return exchange + "." + name;
    }

    @Override
    public <T> void subscribe(String name, Class<T> type, int workers, Handler<T> handler) {
        String queue = queueOf(name);
        withChannel(ch -> {
            ch.queueDeclare(queue, false, false, false, queueArguments.isEmpty() ? null : queueArguments);
            ch.queueBind(queue, exchange, name);
        });
        queues.add(queue);
        rabbit.subscribe(queue, type, workers, handler);
    }

    @Override
    public void start() {}

    @Override
    public PublishResult publish(DSLContext ctx, String name, Object payload) {
        return rabbit.publish(ctx, name, payload);
    }

    @Override
    public String handle() {
        return exchange;
    }

    @Override
    public Sender sender() {
        return rabbit::send;
    }

    RabbitTransport rabbit() {
        return rabbit;
    }

    @Override
    public void close() {
        try {
            withChannel(ch -> {
                for (String q : queues) {
                    ch.queueDelete(q);
                }
                ch.exchangeDelete(exchange);
            });
        } finally {
            rabbit.close();
        }
    }
}
