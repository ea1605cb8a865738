-- orders.id is SQLite's rowid (an INTEGER PRIMARY KEY), which never holds NULL, but V1 did not say so, and
-- jOOQ reads such a column as nullable. Declared NOT NULL, as on PostgreSQL and MariaDB, it reads the same
-- on every database, so the one set of jOOQ classes generated from these migrations fits all three. SQLite
-- cannot add a constraint to a column in place: the table is rebuilt, its rows copied.
CREATE TABLE orders_rebuilt (
    id       INTEGER NOT NULL PRIMARY KEY,
    customer TEXT,
    total    BIGINT
);
INSERT INTO orders_rebuilt (id, customer, total) SELECT id, customer, total FROM orders;
DROP TABLE orders;
ALTER TABLE orders_rebuilt RENAME TO orders;
