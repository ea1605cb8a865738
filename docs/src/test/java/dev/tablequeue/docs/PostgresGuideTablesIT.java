package dev.tablequeue.docs;

class PostgresGuideTablesIT extends GuideTablesContract {
    @Override
    protected GuideDatabase db() {
        return GuideDatabase.POSTGRES;
    }
}
