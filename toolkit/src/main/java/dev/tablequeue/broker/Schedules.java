package dev.tablequeue.broker;

import dev.tablequeue.DeclarationException;
import dev.tablequeue.TableQueueException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A broker's schedules and the thread that runs them: registered while the broker is configured; checked and
 * given their cursors from the tables at its start (before any subscription claims: nothing starts where one is
 * refused); then one platform thread reads the broker's clock each poll interval and publishes what is due. A
 * failed publish is logged and tried again at the next tick (the cursor moves only once an instant is written
 * or found written). Every publish goes through the table's unique key, so it is the database, not this thread,
 * that keeps an instant to one row across instances.
 */
final class Schedules {
    private static final Logger LOG = LoggerFactory.getLogger(Schedules.class);

    private final QueueBroker broker;
    private final List<ScheduledJob> jobs = new CopyOnWriteArrayList<>();
    private final Map<String, ScheduledJob> byName = new ConcurrentHashMap<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile Thread thread;

    Schedules(QueueBroker broker) {
        this.broker = broker;
    }

    /** @throws DeclarationException where the broker has a schedule of that name already */
    void add(RecurringJob recurring) {
        ScheduledJob job = new ScheduledJob(recurring);
        if (byName.putIfAbsent(job.schedule.name(), job) != null) {
            throw new DeclarationException("this broker has a schedule named \"" + job.schedule.name() + "\" already:"
                    + " the name starts each row's key, so it is one schedule's");
        }
        jobs.add(job);
    }

    /** The names of the schedules that publish into table {@code table}, whose newest rows retention leaves. */
    List<String> namesOn(String table) {
        return jobs.stream().filter(j -> j.queue.binding().tableName().equals(table)).map(j -> j.schedule.name())
                .toList();
    }

    /** Checks every schedule's binding and table, and reads each one's newest row; returns how many there are. */
    int open(BrokerInserts inserts) {
        if (jobs.isEmpty()) {
            return 0;
        }
        for (ScheduledJob job : jobs) {
            job.checkBinding();
        }
        Instant now = broker.clock.instant();
        try (Connection c = broker.dataSource.getConnection()) {
            for (ScheduledJob job : jobs) {
                inserts.prepare(c, job.queue.binding(), job.user());
            }
        } catch (SQLException e) {
            throw new TableQueueException("cannot check the schedules' tables: " + e.getMessage(), e);
        }
        for (ScheduledJob job : jobs) {
            job.open(broker.db, now);
        }
        return jobs.size();
    }

    /** Starts the thread that publishes due instants, where there are schedules. */
    void start() {
        if (jobs.isEmpty()) {
            return;
        }
        Thread t = new Thread(this::run, "tablequeue-schedules");
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    private void run() {
        Publisher publisher = broker.publisher();
        long pause = broker.pollInterval.toMillis();
        try {
            do {
                tick(publisher);
            } while (!stopped.await(pause, TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Publishes what is due now for each schedule; a failure is logged, and the next tick tries again. */
    void tick(Publisher publisher) {
        for (ScheduledJob job : jobs) {
            if (stopped.getCount() == 0) {
                return;
            }
            try {
                if (job.tick(publisher, broker.clock.instant())) {
                    LOG.debug("tablequeue {} published", job.schedule);
                }
            } catch (RuntimeException e) {
                LOG.warn("tablequeue {}: the publish failed, and is tried again at the next tick", job.user(), e);
            }
        }
    }

    /** Stops the thread and waits for a publish under way to end. Idempotent. */
    void stop() {
        stopped.countDown();
        Thread t = thread;
        if (t != null && t != Thread.currentThread()) {
            try {
                t.join(broker.drainTimeout.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Each schedule's state, in the order they were registered. */
    List<ScheduleState> states() {
        Instant now = broker.clock.instant();
        List<ScheduleState> states = new ArrayList<>(jobs.size());
        for (ScheduledJob job : jobs) {
            states.add(job.state(now));
        }
        return List.copyOf(states);
    }
}
