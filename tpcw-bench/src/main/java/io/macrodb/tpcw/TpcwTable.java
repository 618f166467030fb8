package io.macrodb.tpcw;

/**
 * The ten TPC-W tables, in the order the population fills them. Dropping goes in reverse; nothing else depends
 * on the order (the schema declares no foreign keys, as in the reference implementation).
 */
public enum TpcwTable {
    COUNTRY("country"),
    AUTHOR("author"),
    ITEM("item"),
    ADDRESS("address"),
    CUSTOMER("customer"),
    ORDERS("orders"),
    ORDER_LINE("order_line"),
    CC_XACTS("cc_xacts"),
    SHOPPING_CART("shopping_cart"),
    SHOPPING_CART_LINE("shopping_cart_line");

    private final String sqlName;

    TpcwTable(String sqlName) {
        this.sqlName = sqlName;
    }

    /** The table's name in SQL. */
    public String sqlName() {
        return sqlName;
    }
}
