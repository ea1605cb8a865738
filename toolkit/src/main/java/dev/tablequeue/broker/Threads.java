package dev.tablequeue.broker;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Named thread factories: platform threads for work that blocks in native code, virtual ones elsewhere. */
final class Threads {
    private Threads() {}

    static ThreadFactory platform(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    static ThreadFactory virtual(String prefix) {
        return Thread.ofVirtual().name(prefix + "-", 1).factory();
    }
}
