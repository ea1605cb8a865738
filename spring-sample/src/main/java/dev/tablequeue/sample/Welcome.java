package dev.tablequeue.sample;

/** The welcome job's payload: whom to welcome. */
public record Welcome(String email) {}
