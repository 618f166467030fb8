package io.macrodb.tpcw.interaction;

import java.math.BigDecimal;

/** One line of a shopping cart as its page shows it: the item, its quantity and its prices. */
public record CartLine(int itemId, int quantity, BigDecimal cost, BigDecimal srp, String title) {
}
