package dev.tablequeue.outbox.rabbitmq;

import com.rabbitmq.client.ConfirmListener;
import com.rabbitmq.client.ShutdownListener;
import com.rabbitmq.client.ShutdownSignalException;
import java.util.concurrent.CompletableFuture;

/**
 * The broker's answer to the one publish a confirm-mode channel carries at a time, read from the confirm of that
 * publish's own sequence number. The client's {@code waitForConfirms} is not used: it answers with a flag over
 * every confirm since its last call, which it sets after it has counted the confirm in, so a nack that lands
 * while a publish starts waiting can be reported as an ack for that publish and as a nack for the next one (a
 * refused message taken as sent, and a sent one as refused). A confirm for an earlier sequence number (a publish
 * that timed out) is not this publish's answer.
 */
final class PublishConfirms implements ConfirmListener, ShutdownListener {
    private record Pending(long seqNo, CompletableFuture<Boolean> answer) {}

    private volatile Pending pending;

    /**
     * Awaits the confirm of the publish about to go out as {@code seqNo}: the answer completes with true on the
     * broker's ack, false on its nack, and exceptionally with the signal where the channel shuts down first.
     * Called before the publish, so that no confirm of it can come before.
     */
    CompletableFuture<Boolean> expect(long seqNo) {
        Pending p = new Pending(seqNo, new CompletableFuture<>());
        pending = p;
        return p.answer;
    }

    @Override
    public void handleAck(long tag, boolean multiple) {
        answer(tag, multiple, true);
    }

    @Override
    public void handleNack(long tag, boolean multiple) {
        answer(tag, multiple, false);
    }

    private void answer(long tag, boolean multiple, boolean ack) {
        Pending p = pending;
        // a multiple confirm answers every sequence number up to its tag
        if (p != null && (tag == p.seqNo || multiple && tag > p.seqNo)) {
            p.answer.complete(ack);
        }
    }

    @Override
    public void shutdownCompleted(ShutdownSignalException cause) {
        Pending p = pending;
        if (p != null) {
            p.answer.completeExceptionally(cause);
        }
    }
}
