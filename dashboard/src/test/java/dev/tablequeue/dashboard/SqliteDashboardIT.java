package dev.tablequeue.dashboard;

import dev.tablequeue.test.contract.ContractDatabase;

/** The dashboard in a browser, on Sqlite. */
class SqliteDashboardIT extends DashboardContract {

    @Override
    protected ContractDatabase database() {
        return DashboardDatabase.SQLITE;
    }
}
