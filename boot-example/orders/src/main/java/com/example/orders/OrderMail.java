package com.example.orders;

/** Sent to RabbitMQ (the mails queue) once an order is placed: the mail service confirms the order to the customer. */
public record OrderMail(long orderId, String customer) {}
