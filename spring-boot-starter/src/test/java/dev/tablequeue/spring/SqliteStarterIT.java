package dev.tablequeue.spring;

import dev.tablequeue.test.Engine;

/** The starter on SQLite, in the lease form. */
@StarterDatabase.On(Engine.SQLITE)
class SqliteStarterIT extends StarterContract {}
