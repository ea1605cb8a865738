package dev.tablequeue.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tablequeue.broker.Outcome;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;

class MiddlewaresTest {

    /** A message as a transport hands it to its middlewares. */
    private static final class Out implements OutgoingMessage {
        final Map<String, String> headers = new LinkedHashMap<>();

        @Override
        public String name() {
            return "orders";
        }

        @Override
        public byte[] payload() {
            return new byte[] {1};
        }

        @Override
        public Map<String, String> headers() {
            return headers;
        }

        @Override
        public void header(String key, String value) {
            headers.put(key, value);
        }

        @Override
        public DSLContext transaction() {
            return null;
        }

        @Override
        public boolean sendJoinsTransaction() {
            return false;
        }
    }

    @Test
    void publish_middlewares_run_in_the_order_added_and_the_send_sees_every_header_they_added() throws Exception {
        List<String> seen = new ArrayList<>();
        Middlewares m = new Middlewares(List.of(
                (msg, next) -> {
                    seen.add("first");
                    msg.header("trace", "t1");
                    next.send(msg);
                },
                (msg, next) -> {
                    seen.add("second saw trace " + msg.headers().get("trace"));
                    msg.header("id", "7");
                    next.send(msg);
                }), List.of());
        Out out = new Out();
        m.publish(out, msg -> seen.add("send " + msg.headers()));
        assertThat(seen).containsExactly("first", "second saw trace t1", "send {trace=t1, id=7}");
    }

    @Test
    void a_publish_middleware_that_does_not_call_next_sends_nothing() throws Exception {
        List<String> sent = new ArrayList<>();
        Middlewares m = new Middlewares(List.of((msg, next) -> { }), List.of());
        m.publish(new Out(), msg -> sent.add(msg.name()));
        assertThat(sent).isEmpty();
    }

    @Test
    void handler_middlewares_wrap_the_handler_outermost_first_and_may_answer_without_it() throws Exception {
        List<String> seen = new ArrayList<>();
        Middlewares m = new Middlewares(List.of(), List.of(
                (name, d, next) -> {
                    seen.add("outer in " + name);
                    Outcome o = next.call();
                    seen.add("outer out " + o);
                    return o;
                },
                (name, d, next) -> {
                    seen.add("inner");
                    return next.call();
                }));
        Outcome outcome = m.handle("orders", null, () -> {
            seen.add("handler");
            return Outcome.retry();
        });
        assertThat(outcome).isEqualTo(Outcome.retry());
        assertThat(seen).containsExactly("outer in orders", "inner", "handler", "outer out INSTANCE");

        Middlewares skipping = new Middlewares(List.of(), List.of((name, d, next) -> Outcome.ack()));
        List<String> ran = new ArrayList<>();
        assertThat(skipping.handle("orders", null, () -> {
            ran.add("handler");
            return Outcome.retry();
        })).isEqualTo(Outcome.ack());
        assertThat(ran).isEmpty();
    }

    @Test
    void no_middleware_means_neither_chain_is_entered() {
        assertThat(Middlewares.none().publishes()).isFalse();
        assertThat(Middlewares.none().handles()).isFalse();
    }
}
