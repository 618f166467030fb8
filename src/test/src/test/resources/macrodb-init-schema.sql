-- A schema script as applications keep one: run by H2's RUNSCRIPT, or at each connection by INIT.
CREATE TABLE IF NOT EXISTS customer (
    id INT PRIMARY KEY,
    name VARCHAR(20),
    created TIMESTAMP DEFAULT CURRENT_TIMESTAMP  -- each replica would have its own clock
);
CREATE SEQUENCE IF NOT EXISTS customer_ids START WITH 100;
/* a block comment; with a semicolon */
MERGE INTO customer (id, name) KEY (id) VALUES (1, 'ada;lovelace');
