package io.macrodb.tpcw.interaction;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What an interaction's page shows that matters to the browser's next step: the items it links to, the item it
 * shows, the customer and cart ids it establishes, the cart's lines, and how many rows it listed (tests check
 * that a page is not empty). Built by the interaction, adopted by the browser after commit.
 */
public final class Page {

    private List<Integer> itemLinks = List.of();
    private OptionalInt itemId = OptionalInt.empty();
    private OptionalInt customerId = OptionalInt.empty();
    private OptionalInt cartId = OptionalInt.empty();
    private Optional<List<CartLine>> cartLines = Optional.empty();
    private Optional<String> customerName = Optional.empty();
    private OptionalInt orderId = OptionalInt.empty();
    private int rows;

    public Page links(List<Integer> items) {
        this.itemLinks = List.copyOf(items);
        return this;
    }

    public Page item(int id) {
        this.itemId = OptionalInt.of(id);
        return this;
    }

    public Page customer(int id) {
        this.customerId = OptionalInt.of(id);
        return this;
    }

    public Page cart(int id, List<CartLine> lines) {
        this.cartId = OptionalInt.of(id);
        this.cartLines = Optional.of(List.copyOf(lines));
        return this;
    }

    public Page customerName(String name) {
        this.customerName = Optional.of(name);
        return this;
    }

    public Page order(int id) {
        this.orderId = OptionalInt.of(id);
        return this;
    }

    public Page rows(int count) {
        this.rows = count;
        return this;
    }

    public List<Integer> itemLinks() {
        return itemLinks;
    }

    public OptionalInt itemId() {
        return itemId;
    }

    public OptionalInt customerId() {
        return customerId;
    }

    public OptionalInt cartId() {
        return cartId;
    }

    public Optional<List<CartLine>> cartLines() {
        return cartLines;
    }

    public Optional<String> customerName() {
        return customerName;
    }

    public OptionalInt orderId() {
        return orderId;
    }

    public int rows() {
        return rows;
    }
}
