package dev.tablequeue.docs;

class PostgresGuideTablesTest extends GuideTablesContract {
    @Override
    protected GuideDatabase db() {
        return GuideDatabase.POSTGRES;
    }
}
