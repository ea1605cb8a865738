package dev.tablequeue.spring;

import dev.tablequeue.test.Engine;

/** A transactional handler inside Spring on SQLite (lease form). */
@StarterDatabase.On(Engine.SQLITE)
class SqliteSpringHandlerIT extends SpringHandlerContract {}
