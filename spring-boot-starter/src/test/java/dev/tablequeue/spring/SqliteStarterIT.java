package dev.tablequeue.spring;

import dev.tablequeue.testkit.LiveDatabase;

/** The starter on SQLite, in the lease form. */
@StarterDatabase.On(LiveDatabase.Engine.SQLITE)
class SqliteStarterIT extends StarterContract {}
