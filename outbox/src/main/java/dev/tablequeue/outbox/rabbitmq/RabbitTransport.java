package dev.tablequeue.outbox.rabbitmq;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import dev.tablequeue.TableQueueException;
import dev.tablequeue.broker.PublishResult;
import dev.tablequeue.broker.Codec;
import dev.tablequeue.broker.Handler;
import dev.tablequeue.outbox.HandlerRun;
import dev.tablequeue.outbox.MessagePublisher;
import dev.tablequeue.outbox.TransportBuilder;
import dev.tablequeue.transport.Middlewares;
import dev.tablequeue.transport.OutgoingMessage;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A transport on RabbitMQ, with the same middlewares as every transport. A publish goes to the exchange under
 * the message's name as routing key (the default exchange: the queue of that name), persistent and
 * mandatory, on a channel in confirm mode: it returns once the broker confirmed it, and throws where the
 * broker refused it (a nack), returned it (no queue took it), did not confirm in time, or the connection was
 * down. A subscription consumes with manual acknowledgements and a prefetch of its workers: an acknowledged
 * or dropped message is acked (a drop is rejected, for the queue's dead-letter exchange where it has one), a
 * retried one is returned to the queue (after its delay), and a handler that throws is retried.
 *
 * <p>The connection recovers by itself (the client's automatic recovery); a message whose acknowledgement was
 * lost with the connection comes again, and the outbox acknowledges that copy without its handler.
 */
public final class RabbitTransport implements MessagePublisher, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RabbitTransport.class);

    private final Connection connection;
    private final String exchange;
    private final Duration confirmTimeout;
    private final Codec codec;
    private final Middlewares middlewares;
    private final BlockingQueue<Publishing> channels;
    private final List<Channel> consumers = new ArrayList<>();
    private final ScheduledExecutorService delays = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "tablequeue-rabbit-delays");
        t.setDaemon(true);
        return t;
    });

    /** A confirm-mode channel, and what the broker confirmed and returned of the publish in progress on it. */
    private static final class Publishing {
        final Channel channel;
        final PublishConfirms confirms = new PublishConfirms();
        volatile String returned;

        Publishing(Channel channel) {
            this.channel = channel;
        }
    }

    private RabbitTransport(Builder b) {
        this.exchange = b.exchange;
        this.confirmTimeout = b.confirmTimeout;
        this.codec = b.codecSetting();
        this.middlewares = b.middlewares();
        this.channels = new ArrayBlockingQueue<>(b.channels);
        try {
            b.factory.setAutomaticRecoveryEnabled(true);
            this.connection = b.factory.newConnection(b.connectionName);
        } catch (IOException | TimeoutException e) {
            throw new TableQueueException("cannot connect to RabbitMQ at " + b.factory.getHost() + ":"
                    + b.factory.getPort() + ": " + e.getMessage(), e);
        }
        for (int i = 0; i < b.channels; i++) {
            channels.add(openPublishing());
        }
    }

    public static Builder builder(ConnectionFactory factory) {
        return new Builder(factory);
    }

    /** The connection, for the service's own topology (exchanges, queues, bindings). */
    public Connection connection() {
        return connection;
    }

    private Publishing openPublishing() {
        try {
            Channel channel = connection.createChannel();
            channel.confirmSelect();
            Publishing p = new Publishing(channel);
            channel.addReturnListener(r -> p.returned = r.getReplyText() + " (" + r.getReplyCode() + ")");
            channel.addConfirmListener(p.confirms);
            channel.addShutdownListener(p.confirms);
            return p;
        } catch (IOException e) {
            throw new TableQueueException("cannot open a RabbitMQ channel: " + e.getMessage(), e);
        }
    }

    @Override
    public PublishResult publish(DSLContext ctx, String name, Object payload, Map<String, String> headers) {
        var message = new dev.tablequeue.outbox.Envelope(name, payload, headers, codec, ctx, true);
        try {
            middlewares.publish(message, this::basicPublish);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new TableQueueException("publish of " + name + " to RabbitMQ failed: " + e.getMessage(), e);
        }
        return message.result();
    }

    /** Publishes on a pooled confirm channel and waits for the broker's confirm. */
    private void basicPublish(OutgoingMessage m) throws IOException, InterruptedException {
        Publishing p = channels.take();
        boolean healthy = false;
        try {
            p.returned = null;
            AMQP.BasicProperties props = new AMQP.BasicProperties.Builder()
                    .type(m.name())
                    .deliveryMode(2)
                    .headers(new HashMap<>(m.headers()))
                    .build();
            CompletableFuture<Boolean> confirm = p.confirms.expect(p.channel.getNextPublishSeqNo());
            p.channel.basicPublish(exchange, m.name(), true, props, m.payload());
            if (!confirm.get(confirmTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IOException("RabbitMQ refused " + m.name() + " (a nack of its publisher confirm)");
            }
            if (p.returned != null) {
                throw new IOException("RabbitMQ returned " + m.name() + ": no queue is bound to \"" + m.name()
                        + "\" on exchange \"" + exchange + "\": " + p.returned);
            }
            healthy = true;
        } catch (TimeoutException e) {
            throw new IOException("RabbitMQ did not confirm " + m.name() + " within " + confirmTimeout, e);
        } catch (ExecutionException e) {
            throw new IOException("the RabbitMQ channel is down: " + e.getCause().getMessage(), e.getCause());
        } catch (com.rabbitmq.client.ShutdownSignalException e) {
            throw new IOException("the RabbitMQ channel is down: " + e.getMessage(), e);
        } finally {
            channels.add(healthy || p.channel.isOpen() ? p : reopen(p));
        }
    }

    /**
     * A channel in place of one that closed; the old one again where a new one cannot be opened now (a
     * connection that is down recovers its channels itself).
     */
    private Publishing reopen(Publishing broken) {
        if (!connection.isOpen()) {
            return broken;
        }
        try {
            return openPublishing();
        } catch (RuntimeException e) {
            LOG.warn("a RabbitMQ channel did not reopen; trying again at the next publish: {}", e.toString());
            return broken;
        }
    }

    /**
     * Subscribes {@code handler} to {@code queue} with {@code workers} messages in hand at once (the prefetch);
     * the payload is decoded into a {@code type} ({@code byte[]} takes it as it is). The name the middlewares
     * see is the name the message was published under.
     */
    public <T> void subscribe(String queue, Class<T> type, int workers, Handler<T> handler) {
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be at least 1, was " + workers + " (" + queue + ")");
        }
        try {
            Channel channel = connection.createChannel();
            channel.basicQos(workers);
            channel.basicConsume(queue, false, new DefaultConsumer(channel) {
                @Override
                public void handleDelivery(String tag, Envelope envelope, AMQP.BasicProperties props, byte[] body) {
                    RabbitDelivery d = new RabbitDelivery(queue, envelope, props, body);
                    Thread.ofVirtual().name("tablequeue-rabbit-" + queue).start(() ->
                            new RabbitSettle(channel, d, delays).settle(HandlerRun.outcome(codec, middlewares, d.name(), d,
                                    d.body(), type, handler)));
                }
            });
            synchronized (consumers) {
                consumers.add(channel);
            }
        } catch (IOException e) {
            throw new TableQueueException("cannot consume RabbitMQ queue \"" + queue + "\": " + e.getMessage(), e);
        }
    }

    /** Closes the consumers and the connection. */
    @Override
    public void close() {
        delays.shutdownNow();
        try {
            connection.close();
        } catch (IOException | com.rabbitmq.client.AlreadyClosedException e) {
            LOG.debug("the RabbitMQ connection was closed already: {}", e.toString());
        }
    }

    /** Configures a {@link RabbitTransport}. */
    public static final class Builder extends TransportBuilder<Builder> {
        private final ConnectionFactory factory;
        private String exchange = "";
        private String connectionName = "tablequeue";
        private Duration confirmTimeout = Duration.ofSeconds(10);
        private int channels = 4;

        private Builder(ConnectionFactory factory) {
            this.factory = Objects.requireNonNull(factory, "factory");
        }

        /** The exchange publishes go to (default "", the default exchange: routing key = queue name). */
        public Builder exchange(String exchange) {
            this.exchange = Objects.requireNonNull(exchange, "exchange");
            return this;
        }

        /** The connection's name, as RabbitMQ's management lists it. */
        public Builder connectionName(String name) {
            this.connectionName = Objects.requireNonNull(name, "name");
            return this;
        }

        /** How long a publish waits for the broker's confirm (default 10 s). */
        public Builder confirmTimeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("confirmTimeout must be positive, was " + timeout);
            }
            this.confirmTimeout = timeout;
            return this;
        }

        /** How many publishes may wait for their confirms at once, each on a channel of its own (default 4). */
        public Builder channels(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("channels must be at least 1, was " + n);
            }
            this.channels = n;
            return this;
        }

        /** Connects. */
        public RabbitTransport build() {
            return new RabbitTransport(this);
        }
    }
}
