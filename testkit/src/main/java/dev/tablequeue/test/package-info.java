/**
 * tablequeue's test kit: {@link dev.tablequeue.test.TableQueueDatabase} gives a JUnit 5 test class a fresh, migrated
 * database on PostgreSQL, MariaDB, MySQL or SQLite; {@link dev.tablequeue.test.QueueWatch} waits on what a broker
 * does without sleeping; {@link dev.tablequeue.test.QueueAssertions} checks what a queue and its rows hold. The
 * settable clock a broker takes for due times and leases is {@code dev.tablequeue.testkit.SettableClock}.
 */
package dev.tablequeue.test;
