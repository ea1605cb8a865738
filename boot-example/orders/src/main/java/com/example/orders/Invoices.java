package com.example.orders;

import static com.example.orders.jooq.Tables.INVOICES;
import static com.example.orders.jooq.Tables.ORDERS;

import org.jooq.DSLContext;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Issues invoices. Called from {@link InvoiceOrders}, a transactional handler, it joins the delivery's
 * transaction: the invoice commits with the job's acknowledgement, or rolls back with the job when the handler
 * fails after it (the ledger refuses the invoice), and the job comes again.
 */
@Service
public class Invoices {
    private final DSLContext dsl;

    Invoices(DSLContext dsl) {
        this.dsl = dsl;
    }

    /** Writes the invoice of order {@code orderId}; returns its amount. */
    @Transactional
    public long issue(long orderId) {
        long amount = dsl.select(ORDERS.AMOUNT_CENTS).from(ORDERS).where(ORDERS.ID.eq(orderId)).fetchSingle().value1();
        dsl.insertInto(INVOICES).set(INVOICES.ORDER_ID, orderId).set(INVOICES.AMOUNT_CENTS, amount).execute();
        return amount;
    }
}
