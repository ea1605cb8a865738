package dev.tablequeue.dashboard;

import dev.tablequeue.test.contract.ContractDatabase;

/** The dashboard in a browser, on MariaDb. */
class MariaDbDashboardIT extends DashboardContract {

    @Override
    protected ContractDatabase database() {
        return DashboardDatabase.MARIADB;
    }
}
