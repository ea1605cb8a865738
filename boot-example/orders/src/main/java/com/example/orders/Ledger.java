package com.example.orders;

/** The accounting system invoices are posted to. */
public interface Ledger {
    /** Posts the invoice of order {@code orderId}; throws where the ledger refuses it. */
    void post(long orderId, long amountCents);
}
