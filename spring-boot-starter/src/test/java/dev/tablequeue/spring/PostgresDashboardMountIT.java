package dev.tablequeue.spring;

import dev.tablequeue.test.Engine;

/** The dashboard and the asyncapi endpoint mounted in a service on PostgreSQL. */
@StarterDatabase.On(Engine.POSTGRES)
class PostgresDashboardMountIT extends DashboardMountContract {}
