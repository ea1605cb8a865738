package dev.tablequeue.maven;

/**
 * The dead-letter table a subscription of a binding moves rows into ({@code deadLetterTable(..)} on the
 * broker), so the check prepares the move and checks that the table has every column it writes.
 *
 * <pre>{@code
 * <deadLetterTable>
 *   <binding>com.example.Queues.SEND_EMAIL</binding>
 *   <table>email_jobs_dead</table>
 * </deadLetterTable>
 * }</pre>
 */
public class DeadLetterTable {
    /** The binding, as {@code bindings} names one: a constant, a class or a package. */
    String binding;

    /** The table's name, qualified with its schema where it has one ({@code queues.email_jobs_dead}). */
    String table;
}
