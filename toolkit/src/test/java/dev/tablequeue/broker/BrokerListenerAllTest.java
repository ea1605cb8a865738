package dev.tablequeue.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class BrokerListenerAllTest {

    /** Every callback of the interface (its static and private methods left out). */
    private static List<Method> callbacks() {
        return Arrays.stream(BrokerListener.class.getDeclaredMethods())
                .filter(m -> !Modifier.isStatic(m.getModifiers()) && !Modifier.isPrivate(m.getModifiers()))
                .toList();
    }

    /** A listener that writes "name:method" to {@code log} for every callback, and throws where told. */
    private static BrokerListener recorder(String name, List<String> log, boolean throwing) {
        InvocationHandler h = (proxy, method, args) -> {
            if (method.getDeclaringClass() == Object.class) {
                return switch (method.getName()) {
                    case "toString" -> "listener " + name;
                    case "hashCode" -> System.identityHashCode(proxy);
                    default -> proxy == args[0];
                };
            }
            log.add(name + ":" + method.getName());
            if (throwing) {
                throw new IllegalStateException(name + " failed in " + method.getName());
            }
            return null;
        };
        return (BrokerListener) Proxy.newProxyInstance(BrokerListener.class.getClassLoader(),
                new Class<?>[] {BrokerListener.class}, h);
    }

    private static void call(BrokerListener listener, Method m) throws Throwable {
        try {
            Object[] args = Arrays.stream(m.getParameterTypes()).map(t -> t == int.class ? (Object) 0 : null).toArray();
            m.invoke(listener, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    @Test
    void every_callback_reaches_every_listener_in_order() throws Throwable {
        List<String> log = new CopyOnWriteArrayList<>();
        BrokerListener all = BrokerListener.all(recorder("a", log, false), recorder("b", log, false));
        assertThat(callbacks()).hasSizeGreaterThanOrEqualTo(10);
        for (Method m : callbacks()) {
            log.clear();
            call(all, m);
            assertThat(log).as(m.getName()).containsExactly("a:" + m.getName(), "b:" + m.getName());
        }
    }

    @Test
    void a_listener_that_throws_keeps_the_event_from_no_other_and_nothing_reaches_the_broker() throws Throwable {
        List<String> log = new CopyOnWriteArrayList<>();
        BrokerListener all = BrokerListener.all(List.of(recorder("a", log, true), recorder("b", log, false),
                recorder("c", log, true)));
        for (Method m : callbacks()) {
            log.clear();
            call(all, m);
            assertThat(log).as(m.getName()).containsExactly("a:" + m.getName(), "b:" + m.getName(),
                    "c:" + m.getName());
        }
    }
}
