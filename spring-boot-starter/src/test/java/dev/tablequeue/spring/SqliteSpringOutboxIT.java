package dev.tablequeue.spring;

import dev.tablequeue.test.Engine;

/** The outbox in Spring's transactions on SQLite. */
@StarterDatabase.On(Engine.SQLITE)
class SqliteSpringOutboxIT extends SpringOutboxContract {}
