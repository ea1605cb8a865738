package dev.tablequeue.dashboard;

import dev.tablequeue.test.contract.ContractDatabase;

/** The dashboard in a browser, on Postgres. */
class PostgresDashboardIT extends DashboardContract {

    @Override
    protected ContractDatabase database() {
        return DashboardDatabase.POSTGRES;
    }
}
