-- Runs on H2 and HSQLDB alike (FlywayMigrationTest): a table, a sequence, rows, one of them drawn from the sequence.
CREATE TABLE product (
    id    BIGINT PRIMARY KEY,
    name  VARCHAR(100) NOT NULL,
    price DECIMAL(10, 2) NOT NULL
);

CREATE SEQUENCE product_seq START WITH 100;

INSERT INTO product (id, name, price) VALUES (1, 'tea', 3.50);
INSERT INTO product (id, name, price) VALUES (NEXT VALUE FOR product_seq, 'coffee', 4.20);
