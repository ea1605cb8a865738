package com.example.orders;

import static com.example.orders.jooq.Tables.INVOICES;
import static com.example.orders.jooq.Tables.ORDERS;

import org.jooq.DSLContext;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Issues invoices. Called from {@link InvoiceOrders}, a transactional handler, it joins the delivery's
 * transaction: the invoice commits with the job's acknowledgement, and a ledger that refuses it rolls it back
 * with the job, which comes again.
 */
@Service
public class Invoices {
    private final DSLContext dsl;
    private final Ledger ledger;

    Invoices(DSLContext dsl, Ledger ledger) {
        this.dsl = dsl;
        this.ledger = ledger;
    }

    /** Writes the invoice of order {@code orderId} and posts it to the ledger. */
    @Transactional
    public void issue(long orderId) {
        long amount = dsl.select(ORDERS.AMOUNT_CENTS).from(ORDERS).where(ORDERS.ID.eq(orderId)).fetchSingle().value1();
        dsl.insertInto(INVOICES).set(INVOICES.ORDER_ID, orderId).set(INVOICES.AMOUNT_CENTS, amount).execute();
        ledger.post(orderId, amount);
    }
}
