/**
 * tablequeue's test kit: {@link dev.tablequeue.test.TableQueueDatabase} gives a JUnit 5 test class a fresh, migrated
 * database on PostgreSQL, MariaDB, MySQL or SQLite, and {@link dev.tablequeue.test.FreshDatabase} one that a test
 * makes and drops itself; {@link dev.tablequeue.test.SettableClock} moves a broker's due times and leases without
 * waiting; {@link dev.tablequeue.test.QueueWatch} waits on what a broker does without sleeping;
 * {@link dev.tablequeue.test.QueueAssertions} checks what a queue and its rows hold. The contract suites a dialect
 * proves itself with are published beside the kit, in {@code tablequeue-contract}
 * ({@code dev.tablequeue.test.contract}).
 */
package dev.tablequeue.test;
