package io.macrodb.tpcw.browser;

import io.macrodb.bench.Mix;
import io.macrodb.tpcw.interaction.Interaction;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

import static java.util.Map.entry;

import static io.macrodb.tpcw.interaction.Interaction.ADMIN_CONFIRM;
import static io.macrodb.tpcw.interaction.Interaction.ADMIN_REQUEST;
import static io.macrodb.tpcw.interaction.Interaction.BEST_SELLERS;
import static io.macrodb.tpcw.interaction.Interaction.BUY_CONFIRM;
import static io.macrodb.tpcw.interaction.Interaction.BUY_REQUEST;
import static io.macrodb.tpcw.interaction.Interaction.CUSTOMER_REGISTRATION;
import static io.macrodb.tpcw.interaction.Interaction.HOME;
import static io.macrodb.tpcw.interaction.Interaction.NEW_PRODUCTS;
import static io.macrodb.tpcw.interaction.Interaction.ORDER_DISPLAY;
import static io.macrodb.tpcw.interaction.Interaction.ORDER_INQUIRY;
import static io.macrodb.tpcw.interaction.Interaction.PRODUCT_DETAIL;
import static io.macrodb.tpcw.interaction.Interaction.SEARCH_REQUEST;
import static io.macrodb.tpcw.interaction.Interaction.SEARCH_RESULTS;
import static io.macrodb.tpcw.interaction.Interaction.SHOPPING_CART;

/**
 * TPC-W's three mixes (clause 5.2): the transition table a browser follows, and the interaction mix the
 * specification states for it (clause 5.2.4), which the table produces in the long run.
 *
 * <p>The tables are the specification's CUM values as the reference browser emulator carries them
 * ({@code EBTPCW1Factory} browsing, {@code EBTPCW2Factory} shopping, {@code EBTPCW3Factory} ordering). Their
 * stationary mixes match the stated mixes to 0.01 percentage point for browsing and ordering; the shopping
 * table's comes out at 80.7% browse interactions (Home 16.2% instead of 16%, Shopping Cart 11.2% instead of
 * 11.6%, ...), within the specification's tolerance; {@code TransitionTableTest} measures all three.
 */
public enum TpcwMix {
    BROWSING("browsing", "WIPSb: 95% browse interactions", TransitionTable.builder()
            .from(ADMIN_CONFIRM).to(HOME, 9877).to(SEARCH_REQUEST, 9999)
            .from(ADMIN_REQUEST).to(ADMIN_CONFIRM, 8999).to(HOME, 9999)
            .from(BEST_SELLERS).to(HOME, 4607).to(PRODUCT_DETAIL, 5259).to(SEARCH_REQUEST, 9942)
                .to(SHOPPING_CART, 9999)
            .from(BUY_CONFIRM).to(HOME, 342).to(SEARCH_REQUEST, 9999)
            .from(BUY_REQUEST).to(BUY_CONFIRM, 9199).to(HOME, 9595).to(SHOPPING_CART, 9999)
            .from(CUSTOMER_REGISTRATION).to(BUY_REQUEST, 9145).to(HOME, 9619).to(SEARCH_REQUEST, 9999)
            .from(HOME).to(BEST_SELLERS, 3792).to(NEW_PRODUCTS, 7585).to(ORDER_INQUIRY, 7688)
                .to(SEARCH_REQUEST, 9559).to(SHOPPING_CART, 9999)
            .from(NEW_PRODUCTS).to(HOME, 299).to(PRODUCT_DETAIL, 9867).to(SEARCH_REQUEST, 9941)
                .to(SHOPPING_CART, 9999)
            .from(ORDER_DISPLAY).to(HOME, 802).to(SEARCH_REQUEST, 9999)
            .from(ORDER_INQUIRY).to(HOME, 523).to(ORDER_DISPLAY, 8856).to(SEARCH_REQUEST, 9999)
            .from(PRODUCT_DETAIL).to(ADMIN_REQUEST, 47).to(HOME, 8346).to(PRODUCT_DETAIL, 9749)
                .to(SEARCH_REQUEST, 9890).to(SHOPPING_CART, 9999)
            .from(SEARCH_REQUEST).to(HOME, 788).to(SEARCH_RESULTS, 9955).to(SHOPPING_CART, 9999)
            .from(SEARCH_RESULTS).to(HOME, 3674).to(PRODUCT_DETAIL, 9868).to(SEARCH_REQUEST, 9942)
                .to(SHOPPING_CART, 9999)
            .from(SHOPPING_CART).to(CUSTOMER_REGISTRATION, 4099).to(HOME, 8883).to(SHOPPING_CART, 9999)
            .build(),
            Map.ofEntries(entry(HOME, 29.00), entry(NEW_PRODUCTS, 11.00), entry(BEST_SELLERS, 11.00),
                    entry(PRODUCT_DETAIL, 21.00), entry(SEARCH_REQUEST, 12.00), entry(SEARCH_RESULTS, 11.00),
                    entry(SHOPPING_CART, 2.00), entry(CUSTOMER_REGISTRATION, 0.82), entry(BUY_REQUEST, 0.75),
                    entry(BUY_CONFIRM, 0.69), entry(ORDER_INQUIRY, 0.30), entry(ORDER_DISPLAY, 0.25),
                    entry(ADMIN_REQUEST, 0.10), entry(ADMIN_CONFIRM, 0.09))),
    SHOPPING("shopping", "WIPS: 80% browse interactions (the primary metric)", TransitionTable.builder()
            .from(ADMIN_CONFIRM).to(HOME, 9952).to(SEARCH_REQUEST, 9999)
            .from(ADMIN_REQUEST).to(ADMIN_CONFIRM, 8999).to(HOME, 9999)
            .from(BEST_SELLERS).to(HOME, 167).to(PRODUCT_DETAIL, 472).to(SEARCH_REQUEST, 9927)
                .to(SHOPPING_CART, 9999)
            .from(BUY_CONFIRM).to(HOME, 84).to(SEARCH_REQUEST, 9999)
            .from(BUY_REQUEST).to(BUY_CONFIRM, 4614).to(HOME, 6546).to(SHOPPING_CART, 9999)
            .from(CUSTOMER_REGISTRATION).to(BUY_REQUEST, 8666).to(HOME, 8760).to(SEARCH_REQUEST, 9999)
            .from(HOME).to(BEST_SELLERS, 3124).to(NEW_PRODUCTS, 6249).to(ORDER_INQUIRY, 6718)
                .to(SEARCH_REQUEST, 7026).to(SHOPPING_CART, 9999)
            .from(NEW_PRODUCTS).to(HOME, 156).to(PRODUCT_DETAIL, 9735).to(SEARCH_REQUEST, 9784)
                .to(SHOPPING_CART, 9999)
            .from(ORDER_DISPLAY).to(HOME, 69).to(SEARCH_REQUEST, 9999)
            .from(ORDER_INQUIRY).to(HOME, 72).to(ORDER_DISPLAY, 8872).to(SEARCH_REQUEST, 9999)
            .from(PRODUCT_DETAIL).to(ADMIN_REQUEST, 58).to(HOME, 832).to(PRODUCT_DETAIL, 1288)
                .to(SEARCH_REQUEST, 8603).to(SHOPPING_CART, 9999)
            .from(SEARCH_REQUEST).to(HOME, 635).to(SEARCH_RESULTS, 9135).to(SHOPPING_CART, 9999)
            .from(SEARCH_RESULTS).to(HOME, 2657).to(PRODUCT_DETAIL, 9294).to(SEARCH_REQUEST, 9304)
                .to(SHOPPING_CART, 9999)
            .from(SHOPPING_CART).to(CUSTOMER_REGISTRATION, 2585).to(HOME, 9992).to(SHOPPING_CART, 9999)
            .build(),
            Map.ofEntries(entry(HOME, 16.00), entry(NEW_PRODUCTS, 5.00), entry(BEST_SELLERS, 5.00),
                    entry(PRODUCT_DETAIL, 17.00), entry(SEARCH_REQUEST, 20.00), entry(SEARCH_RESULTS, 17.00),
                    entry(SHOPPING_CART, 11.60), entry(CUSTOMER_REGISTRATION, 3.00), entry(BUY_REQUEST, 2.60),
                    entry(BUY_CONFIRM, 1.20), entry(ORDER_INQUIRY, 0.75), entry(ORDER_DISPLAY, 0.66),
                    entry(ADMIN_REQUEST, 0.10), entry(ADMIN_CONFIRM, 0.09))),
    ORDERING("ordering", "WIPSo: 50% browse interactions", TransitionTable.builder()
            .from(ADMIN_CONFIRM).to(HOME, 8348).to(SEARCH_REQUEST, 9999)
            .from(ADMIN_REQUEST).to(ADMIN_CONFIRM, 8999).to(HOME, 9999)
            .from(BEST_SELLERS).to(HOME, 1).to(PRODUCT_DETAIL, 333).to(SEARCH_REQUEST, 9998)
                .to(SHOPPING_CART, 9999)
            .from(BUY_CONFIRM).to(HOME, 2).to(SEARCH_REQUEST, 9999)
            .from(BUY_REQUEST).to(BUY_CONFIRM, 7999).to(HOME, 9453).to(SHOPPING_CART, 9999)
            .from(CUSTOMER_REGISTRATION).to(BUY_REQUEST, 9899).to(HOME, 9901).to(SEARCH_REQUEST, 9999)
            .from(HOME).to(BEST_SELLERS, 499).to(NEW_PRODUCTS, 999).to(ORDER_INQUIRY, 1269)
                .to(SEARCH_REQUEST, 1295).to(SHOPPING_CART, 9999)
            .from(NEW_PRODUCTS).to(HOME, 504).to(PRODUCT_DETAIL, 9942).to(SEARCH_REQUEST, 9976)
                .to(SHOPPING_CART, 9999)
            .from(ORDER_DISPLAY).to(HOME, 9939).to(SEARCH_REQUEST, 9999)
            .from(ORDER_INQUIRY).to(HOME, 1168).to(ORDER_DISPLAY, 9968).to(SEARCH_REQUEST, 9999)
            .from(PRODUCT_DETAIL).to(ADMIN_REQUEST, 99).to(HOME, 3750).to(PRODUCT_DETAIL, 5621)
                .to(SEARCH_REQUEST, 6341).to(SHOPPING_CART, 9999)
            .from(SEARCH_REQUEST).to(HOME, 815).to(SEARCH_RESULTS, 9815).to(SHOPPING_CART, 9999)
            .from(SEARCH_RESULTS).to(HOME, 486).to(PRODUCT_DETAIL, 7817).to(SEARCH_REQUEST, 9998)
                .to(SHOPPING_CART, 9999)
            .from(SHOPPING_CART).to(CUSTOMER_REGISTRATION, 9499).to(HOME, 9918).to(SHOPPING_CART, 9999)
            .build(),
            Map.ofEntries(entry(HOME, 9.12), entry(NEW_PRODUCTS, 0.46), entry(BEST_SELLERS, 0.46),
                    entry(PRODUCT_DETAIL, 12.35), entry(SEARCH_REQUEST, 14.53), entry(SEARCH_RESULTS, 13.08),
                    entry(SHOPPING_CART, 13.53), entry(CUSTOMER_REGISTRATION, 12.86), entry(BUY_REQUEST, 12.73),
                    entry(BUY_CONFIRM, 10.18), entry(ORDER_INQUIRY, 0.25), entry(ORDER_DISPLAY, 0.22),
                    entry(ADMIN_REQUEST, 0.12), entry(ADMIN_CONFIRM, 0.11)));

    private final String id;
    private final String description;
    private final TransitionTable table;
    private final Map<Interaction, Double> statedMix;
    private final Mix harnessMix;

    TpcwMix(String id, String description, TransitionTable table, Map<Interaction, Double> statedMix) {
        this.id = id;
        this.description = description;
        this.table = table;
        this.statedMix = checked(id, statedMix);
        this.harnessMix = harnessMix(id, description, table);
    }

    private static Map<Interaction, Double> checked(String id, Map<Interaction, Double> percents) {
        var mix = new EnumMap<Interaction, Double>(percents);
        if (mix.size() != Interaction.values().length) {
            throw new IllegalArgumentException("mix " + id + " states " + mix.size() + " of 14 interactions");
        }
        double sum = mix.values().stream().mapToDouble(Double::doubleValue).sum();
        if (Math.abs(sum - 100) > 1e-9) {
            throw new IllegalArgumentException("mix " + id + " states percentages adding up to " + sum);
        }
        return Collections.unmodifiableMap(mix);
    }

    /** The name used on the command line and in reports. */
    public String id() {
        return id;
    }

    public TransitionTable table() {
        return table;
    }

    /** The mix the specification states for this table (clause 5.2.4), in percent. */
    public Map<Interaction, Double> statedMix() {
        return statedMix;
    }

    /** The share of browse interactions the specification states: 95, 80 or 50 percent. */
    public double statedBrowseShare() {
        return statedMix.entrySet().stream()
                .filter(e -> e.getKey().category() == Interaction.Category.BROWSE)
                .mapToDouble(Map.Entry::getValue).sum();
    }

    /**
     * This mix for the harness. Its weights are the table's stationary mix, rounded to hundredths of a percent:
     * what the browsers produce in the long run, shown in reports. The browsers do not draw from these weights
     * (they follow the table), so the weights only document.
     */
    public Mix harnessMix() {
        return harnessMix;
    }

    private static Mix harnessMix(String id, String description, TransitionTable table) {
        var weights = new EnumMap<Interaction, Double>(Interaction.class);
        double sum = 0;
        for (var e : table.stationaryMix().entrySet()) {
            double w = Math.round(e.getValue() * 100) / 100.0;
            weights.put(e.getKey(), w);
            sum += w;
        }
        // Put the rounding remainder on Home, the largest share, so the weights add up to exactly 100.
        weights.merge(HOME, 100.0 - sum, Double::sum);
        return Mix.of(id, description + "; browsers follow the transition table, weights are its long-run mix",
                weights);
    }

    /** The mix called {@code id} ({@code browsing}, {@code shopping} or {@code ordering}). */
    public static TpcwMix of(String id) {
        for (TpcwMix m : values()) {
            if (m.id.equals(id)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown TPC-W mix '" + id + "'; use browsing, shopping or ordering");
    }
}
