package dev.tablequeue.outbox;

/**
 * When a record of a binding is done ({@link OutboxBinding.Builder#doneWhen}): the moment its message no longer
 * needs to be sent again, and the record is marked processed (or deleted, without processed_at).
 */
public enum DoneWhen {
    /**
     * When a consumer that runs the outbox's handler middleware on the same database acknowledges (or drops)
     * the message. The consumer's tracking then also acknowledges a second copy without its handler. Right for
     * consumers inside the service (or services sharing its database); a message for anyone else is sent again
     * by every republish, for ever. The default of the in-memory broker and the table broker.
     */
    ACKNOWLEDGED,

    /**
     * When the broker confirms the send (RabbitMQ's publisher confirm, Kafka's acknowledgement with acks=all),
     * for consumers anywhere. A record whose confirmation was written is never sent again; one whose
     * confirmation was not written (the service died between the two) is sent again, so delivery is at least
     * once and consumers dedup on {@link Outbox#ID_HEADER}. The message carries {@link OutboxHeaders#DONE}, and a
     * consumer's outbox tracking leaves it to the consumer's own dedup. The default of the transports to an
     * external broker (RabbitMQ, Kafka).
     */
    CONFIRMED
}
