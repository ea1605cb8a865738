package dev.tablequeue.sample;

/** The event other services learn of a new account by: sent through the outbox once the sign-up commits. */
public record AccountCreated(String email) {}
