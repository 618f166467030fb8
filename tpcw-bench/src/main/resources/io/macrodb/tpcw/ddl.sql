-- TPC-W 1.8 schema (clause 1.3), for both engines: H2 2.x and HSQLDB 2.7 accept the same declarations.
-- Column names follow the specification; every table has a primary key, so that each row written by an
-- interaction is identified by its key (MacroDB captures and applies writes by key).
-- Statements end with ';' at the end of a line; '--' starts a comment.

CREATE TABLE country (
  co_id        INTEGER NOT NULL PRIMARY KEY,
  co_name      VARCHAR(50) NOT NULL,
  co_exchange  NUMERIC(12, 6) NOT NULL,
  co_currency  VARCHAR(18) NOT NULL
);

CREATE TABLE author (
  a_id     INTEGER NOT NULL PRIMARY KEY,
  a_fname  VARCHAR(20) NOT NULL,
  a_lname  VARCHAR(20) NOT NULL,
  a_mname  VARCHAR(20),
  a_dob    DATE,
  a_bio    VARCHAR(500)
);

CREATE TABLE item (
  i_id          INTEGER NOT NULL PRIMARY KEY,
  i_title       VARCHAR(60) NOT NULL,
  i_a_id        INTEGER NOT NULL,
  i_pub_date    DATE NOT NULL,
  i_publisher   VARCHAR(60) NOT NULL,
  i_subject     VARCHAR(60) NOT NULL,
  i_desc        VARCHAR(500),
  i_related1    INTEGER NOT NULL,
  i_related2    INTEGER NOT NULL,
  i_related3    INTEGER NOT NULL,
  i_related4    INTEGER NOT NULL,
  i_related5    INTEGER NOT NULL,
  i_thumbnail   VARCHAR(40),
  i_image       VARCHAR(40),
  i_srp         NUMERIC(15, 2) NOT NULL,
  i_cost        NUMERIC(15, 2) NOT NULL,
  i_avail       DATE NOT NULL,
  i_stock       INTEGER NOT NULL,
  i_isbn        CHAR(13),
  i_page        INTEGER,
  i_backing     VARCHAR(15),
  i_dimensions  VARCHAR(25)
);

CREATE TABLE address (
  addr_id       INTEGER NOT NULL PRIMARY KEY,
  addr_street1  VARCHAR(40) NOT NULL,
  addr_street2  VARCHAR(40),
  addr_city     VARCHAR(30) NOT NULL,
  addr_state    VARCHAR(20) NOT NULL,
  addr_zip      VARCHAR(10) NOT NULL,
  addr_co_id    INTEGER NOT NULL
);

CREATE TABLE customer (
  c_id          INTEGER NOT NULL PRIMARY KEY,
  c_uname       VARCHAR(20) NOT NULL,
  c_passwd      VARCHAR(20) NOT NULL,
  c_fname       VARCHAR(15) NOT NULL,
  c_lname       VARCHAR(15) NOT NULL,
  c_addr_id     INTEGER NOT NULL,
  c_phone       VARCHAR(16),
  c_email       VARCHAR(50),
  c_since       DATE,
  c_last_login  DATE,
  c_login       TIMESTAMP,
  c_expiration  TIMESTAMP,
  c_discount    NUMERIC(4, 2) NOT NULL,
  c_balance     NUMERIC(15, 2),
  c_ytd_pmt     NUMERIC(15, 2),
  c_birthdate   DATE,
  c_data        VARCHAR(500)
);

CREATE TABLE orders (
  o_id            INTEGER NOT NULL PRIMARY KEY,
  o_c_id          INTEGER NOT NULL,
  o_date          TIMESTAMP NOT NULL,
  o_sub_total     NUMERIC(15, 2) NOT NULL,
  o_tax           NUMERIC(15, 2) NOT NULL,
  o_total         NUMERIC(15, 2) NOT NULL,
  o_ship_type     VARCHAR(10) NOT NULL,
  o_ship_date     TIMESTAMP,
  o_bill_addr_id  INTEGER NOT NULL,
  o_ship_addr_id  INTEGER NOT NULL,
  o_status        VARCHAR(15) NOT NULL
);

CREATE TABLE order_line (
  ol_id        INTEGER NOT NULL,
  ol_o_id      INTEGER NOT NULL,
  ol_i_id      INTEGER NOT NULL,
  ol_qty       INTEGER NOT NULL,
  ol_discount  NUMERIC(4, 2) NOT NULL,
  ol_comments  VARCHAR(110),
  PRIMARY KEY (ol_o_id, ol_id)
);

CREATE TABLE cc_xacts (
  cx_o_id       INTEGER NOT NULL PRIMARY KEY,
  cx_type       VARCHAR(10) NOT NULL,
  cx_num        BIGINT NOT NULL,
  cx_name       VARCHAR(31) NOT NULL,
  cx_expire     DATE NOT NULL,
  cx_auth_id    CHAR(15),
  cx_xact_amt   NUMERIC(15, 2) NOT NULL,
  cx_xact_date  TIMESTAMP NOT NULL,
  cx_co_id      INTEGER NOT NULL
);

CREATE TABLE shopping_cart (
  sc_id    INTEGER NOT NULL PRIMARY KEY,
  sc_time  TIMESTAMP NOT NULL
);

CREATE TABLE shopping_cart_line (
  scl_sc_id  INTEGER NOT NULL,
  scl_qty    INTEGER NOT NULL,
  scl_i_id   INTEGER NOT NULL,
  PRIMARY KEY (scl_sc_id, scl_i_id)
);

-- The reference implementation's indexes (its population program adds them after loading). The one on
-- order_line also holds ol_o_id, so that Best Sellers (last 3333 orders) and Admin Confirm (last 10000)
-- seek straight to an item's recent order lines instead of reading all of them.
CREATE INDEX author_a_lname ON author (a_lname);
CREATE INDEX address_addr_co_id ON address (addr_co_id);
CREATE INDEX address_addr_zip ON address (addr_zip);
CREATE INDEX customer_c_addr_id ON customer (c_addr_id);
CREATE UNIQUE INDEX customer_c_uname ON customer (c_uname);
CREATE INDEX item_i_title ON item (i_title);
CREATE INDEX item_i_subject ON item (i_subject);
CREATE INDEX item_i_a_id ON item (i_a_id);
CREATE INDEX order_line_ol_i_id ON order_line (ol_i_id, ol_o_id);
CREATE INDEX country_co_name ON country (co_name);
CREATE INDEX orders_o_c_id ON orders (o_c_id);
CREATE INDEX shopping_cart_line_scl_i_id ON shopping_cart_line (scl_i_id);
