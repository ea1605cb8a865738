package dev.tablequeue.broker;

import org.jooq.DSLContext;

/**
 * The service's own insert of a published message, in place of the binding's: it lays the name, the
 * encoded payload and the headers out in its table as it likes. It runs on the publish's connection (the
 * caller's transaction, where the publish joined one).
 */
@FunctionalInterface
public interface OwnInsert {
    void insert(DSLContext ctx, Message message, byte[] payload) throws Exception;
}
