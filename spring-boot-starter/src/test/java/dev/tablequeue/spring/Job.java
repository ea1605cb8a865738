package dev.tablequeue.spring;

/** The suite's message. */
record Job(String name) {}
