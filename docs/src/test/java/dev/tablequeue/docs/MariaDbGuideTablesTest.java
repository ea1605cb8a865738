package dev.tablequeue.docs;

class MariaDbGuideTablesTest extends GuideTablesContract {
    @Override
    protected GuideDatabase db() {
        return GuideDatabase.MARIADB;
    }
}
