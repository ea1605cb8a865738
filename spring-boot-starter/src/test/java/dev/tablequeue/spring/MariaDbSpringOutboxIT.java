package dev.tablequeue.spring;

import dev.tablequeue.test.Engine;

/** The outbox in Spring's transactions on MariaDB. */
@StarterDatabase.On(Engine.MARIADB)
class MariaDbSpringOutboxIT extends SpringOutboxContract {}
