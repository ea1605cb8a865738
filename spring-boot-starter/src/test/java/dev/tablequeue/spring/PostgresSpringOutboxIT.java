package dev.tablequeue.spring;

import dev.tablequeue.test.Engine;

/** The outbox in Spring's transactions on PostgreSQL. */
@StarterDatabase.On(Engine.POSTGRES)
class PostgresSpringOutboxIT extends SpringOutboxContract {}
