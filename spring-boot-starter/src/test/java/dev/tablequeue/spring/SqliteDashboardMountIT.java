package dev.tablequeue.spring;

import dev.tablequeue.test.Engine;

/** The dashboard and the asyncapi endpoint mounted in a service on SQLite. */
@StarterDatabase.On(Engine.SQLITE)
class SqliteDashboardMountIT extends DashboardMountContract {}
