package dev.tablequeue.docs;

class MariaDbGuideTablesIT extends GuideTablesContract {
    @Override
    protected GuideDatabase db() {
        return GuideDatabase.MARIADB;
    }
}
