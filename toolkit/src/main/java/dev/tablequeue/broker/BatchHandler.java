package dev.tablequeue.broker;

import java.util.List;

/**
 * Handles the rows one claim took, up to the subscription's {@link Mount#batch(int) batch} size, and answers
 * their outcomes: one for all ({@link BatchOutcome#all}) or one per element ({@link BatchOutcome#each}). A
 * handler that throws settles each row by the subscription's handler failure policy. A row that does not
 * decode never reaches it: the decode policy settles that one, and the batch keeps the others.
 *
 * @param <T> the messages: decoded payloads, or the rows in row mode
 */
@FunctionalInterface
public interface BatchHandler<T> {
    /**
     * @param messages the batch's messages, in claim order
     * @param deliveries each message's delivery, in the same order
     */
    BatchOutcome handle(List<T> messages, List<Delivery> deliveries) throws Exception;
}
