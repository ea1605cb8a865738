package com.example.orders;

/** Sent to Kafka (topic {@code order-placed}, keyed by the order's id) once an order is placed. */
public record OrderPlaced(long orderId, String customer, long amountCents) {}
