package dev.tablequeue.outbox;

import dev.tablequeue.broker.Codec;
import dev.tablequeue.broker.JacksonCodec;
import dev.tablequeue.transport.HandlerMiddleware;
import dev.tablequeue.transport.Middlewares;
import dev.tablequeue.transport.PublishMiddleware;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The settings every transport of this module takes: its codec and its middlewares, in the order added.
 *
 * @param <B> the transport's own builder
 */
public abstract class TransportBuilder<B extends TransportBuilder<B>> {
    private Codec codec = new JacksonCodec();
    private final List<PublishMiddleware> publish = new ArrayList<>();
    private final List<HandlerMiddleware> handler = new ArrayList<>();

    protected TransportBuilder() {}

    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }

    /** The codec of payloads (default JSON through Jackson; bytes pass as they are). */
    public B codec(Codec codec) {
        this.codec = Objects.requireNonNull(codec, "codec");
        return self();
    }

    /** Wraps every publish; middlewares run in the order added, the first outermost. */
    public B publishMiddleware(PublishMiddleware middleware) {
        publish.add(Objects.requireNonNull(middleware, "middleware"));
        return self();
    }

    /** Wraps every handler call; middlewares run in the order added, the first outermost. */
    public B handlerMiddleware(HandlerMiddleware middleware) {
        handler.add(Objects.requireNonNull(middleware, "middleware"));
        return self();
    }

    /** The codec set: what the transport encodes and decodes with. */
    public Codec codecSetting() {
        return codec;
    }

    /** The middlewares added, in order: what the transport runs. */
    public Middlewares middlewares() {
        return new Middlewares(publish, handler);
    }
}
