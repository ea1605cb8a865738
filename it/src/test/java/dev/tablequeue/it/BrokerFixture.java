package dev.tablequeue.it;

/**
 * The broker suites of this module that are not published in tablequeue-contract: the contract's fixture
 * ({@link dev.tablequeue.test.contract.BrokerFixture}) on one of the {@link TestDatabase}s, which also know what
 * the drills and crash tests here need (the time type's name a child process takes, the acknowledgement ledger).
 */
public abstract class BrokerFixture extends dev.tablequeue.test.contract.BrokerFixture {

    /** The database this class runs on. */
    @Override
    protected abstract TestDatabase database();

    protected final String timeTypeName() {
        return database().timeTypeName();
    }
}
