package com.example.orders;

/** An invoicing job's payload: the order to invoice. */
public record InvoiceJob(long orderId) {}
