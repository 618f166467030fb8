package io.macrodb.tpcw.interaction;

import io.macrodb.bench.TransactionType;

import java.time.Duration;

/**
 * The fourteen TPC-W web interactions (clause 2), each with the database work its page needs.
 *
 * <p>An interaction that only reads runs as a read-only transaction (the harness sets
 * {@code Connection.setReadOnly(true)}), which is what lets MacroDB send it to a slave; the four that write
 * (Shopping Cart, Buy Request, Buy Confirm, Admin Confirm) run as update transactions on the master. The
 * category is the specification's: the browsing mix is 95% {@link Category#BROWSE} interactions, the shopping
 * mix 80% and the ordering mix 50%.
 */
public enum Interaction implements TransactionType {
    HOME("Home", Category.BROWSE, true, new Home()),
    NEW_PRODUCTS("NewProducts", Category.BROWSE, true, new NewProducts()),
    BEST_SELLERS("BestSellers", Category.BROWSE, true, new BestSellers()),
    PRODUCT_DETAIL("ProductDetail", Category.BROWSE, true, new ProductDetail()),
    SEARCH_REQUEST("SearchRequest", Category.BROWSE, true, new SearchRequest()),
    SEARCH_RESULTS("SearchResults", Category.BROWSE, true, new SearchResults()),
    SHOPPING_CART("ShoppingCart", Category.ORDER, false, new ShoppingCart()),
    CUSTOMER_REGISTRATION("CustomerRegistration", Category.ORDER, true, new CustomerRegistration()),
    BUY_REQUEST("BuyRequest", Category.ORDER, false, new BuyRequest()),
    BUY_CONFIRM("BuyConfirm", Category.ORDER, false, new BuyConfirm()),
    ORDER_INQUIRY("OrderInquiry", Category.ORDER, true, new OrderInquiry()),
    ORDER_DISPLAY("OrderDisplay", Category.ORDER, true, new OrderDisplay()),
    ADMIN_REQUEST("AdminRequest", Category.ORDER, true, new AdminRequest()),
    ADMIN_CONFIRM("AdminConfirm", Category.ORDER, false, new AdminConfirm());

    /** The specification's two kinds of interaction (clause 5.2.1). */
    public enum Category {
        BROWSE, ORDER
    }

    /** Clause 5.3.1.1: the mean of the negative-exponential think time between interactions. */
    public static final Duration SPEC_MEAN_THINK_TIME = Duration.ofSeconds(7);

    private final String displayName;
    private final Category category;
    private final boolean readOnly;
    private final WebInteraction work;

    Interaction(String displayName, Category category, boolean readOnly, WebInteraction work) {
        this.displayName = displayName;
        this.category = category;
        this.readOnly = readOnly;
        this.work = work;
    }

    @Override
    public String displayName() {
        return displayName;
    }

    @Override
    public boolean readOnly() {
        return readOnly;
    }

    @Override
    public Duration meanThinkTime() {
        return SPEC_MEAN_THINK_TIME;
    }

    public Category category() {
        return category;
    }

    /** The database work of this interaction. */
    public WebInteraction work() {
        return work;
    }
}
