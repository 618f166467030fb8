package io.macrodb.tpcw.interaction;

import io.macrodb.tpcw.TpcwRandom;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What an emulated browser brings to one interaction: the page it comes from and what it knows (clause 2.1.2's
 * C_ID and SHOPPING_ID, the items the page links to, the cart it was shown), a snapshot taken before the
 * attempt, plus its random stream and the store.
 *
 * @param store        the target's shared state
 * @param random       the browser's random stream
 * @param from         the interaction whose page the browser is on; empty at the start of a session
 * @param customerId   C_ID, once known (a returning customer, or one registered by Buy Request)
 * @param cartId       SHOPPING_ID, once a Shopping Cart page has created the cart
 * @param itemLinks    the items the current page links to (a Product Detail page picks one)
 * @param itemId       the item the current page shows (Product Detail, Admin Request)
 * @param cartLines    the lines of the last Shopping Cart page (a refresh changes their quantities)
 * @param customerName the name on the last Buy Request page (Buy Confirm puts it on the card)
 */
public record Visit(Store store, TpcwRandom random, Optional<Interaction> from, OptionalInt customerId,
                    OptionalInt cartId, List<Integer> itemLinks, OptionalInt itemId, List<CartLine> cartLines,
                    Optional<String> customerName) {

    public Visit {
        itemLinks = List.copyOf(itemLinks);
        cartLines = List.copyOf(cartLines);
    }

    /** A fresh session: nothing known yet. */
    public static Visit start(Store store, TpcwRandom random) {
        return new Visit(store, random, Optional.empty(), OptionalInt.empty(), OptionalInt.empty(), List.of(),
                OptionalInt.empty(), List.of(), Optional.empty());
    }

    /** Whether the browser arrives from the given page. */
    public boolean comesFrom(Interaction page) {
        return from.isPresent() && from.get() == page;
    }

    /** A uniformly chosen item id (the reference's {@code TPCW_Util.getRandomI_ID}). */
    public int randomItem() {
        return random.uniform(1, store.scale().items());
    }

    /** A customer id by NURand (clause 2.3.2), as the browser picks one to log in with. */
    public int randomCustomer() {
        return random.nuRand(store.scale().customerNuRandA(), 1, store.scale().customers());
    }
}
