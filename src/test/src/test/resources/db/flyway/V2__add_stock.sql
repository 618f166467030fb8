-- A column added to a table that holds rows (its default fills them on every replica), an index, an update.
ALTER TABLE product ADD COLUMN stock INT DEFAULT 0 NOT NULL;

CREATE INDEX product_name ON product (name);

UPDATE product SET stock = 10 WHERE name = 'tea';
