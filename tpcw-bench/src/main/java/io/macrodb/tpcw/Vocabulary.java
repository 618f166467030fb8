package io.macrodb.tpcw;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;

/** The specification's fixed value lists (clauses 4.6.2 and 4.7.1). */
public final class Vocabulary {

    /** Clause 4.6.2.12: I_SUBJECT values. */
    public static final List<String> SUBJECTS = List.of(
            "ARTS", "BIOGRAPHIES", "BUSINESS", "CHILDREN", "COMPUTERS", "COOKING", "HEALTH", "HISTORY", "HOME",
            "HUMOR", "LITERATURE", "MYSTERY", "NON-FICTION", "PARENTING", "POLITICS", "REFERENCE", "RELIGION",
            "ROMANCE", "SELF-HELP", "SCIENCE-NATURE", "SCIENCE-FICTION", "SPORTS", "YOUTH", "TRAVEL");

    /** Clause 4.6.2.16: I_BACKING values. */
    public static final List<String> BACKINGS = List.of("HARDBACK", "PAPERBACK", "USED", "AUDIO", "LIMITED-EDITION");

    /** Clause 4.7.1: O_SHIP_TYPE values (also the Buy Confirm page's shipping choices). */
    public static final List<String> SHIP_TYPES = List.of("AIR", "UPS", "FEDEX", "SHIP", "COURIER", "MAIL");

    /** Clause 4.7.1: O_STATUS values of populated orders; new orders are {@code PENDING}. */
    public static final List<String> ORDER_STATUSES = List.of("PROCESSING", "SHIPPED", "PENDING", "DENIED");

    /** Clause 4.7.1: CX_TYPE values. */
    public static final List<String> CARD_TYPES = List.of("VISA", "MASTERCARD", "DISCOVER", "AMEX", "DINERS");

    /** One row of COUNTRY. */
    public record Country(String name, BigDecimal exchange, String currency) {
    }

    /** Clause 4.7.1: the 92 countries, CO_ID being the position plus one. */
    public static final List<Country> COUNTRIES = countries();

    private Vocabulary() {
    }

    private static List<Country> countries() {
        // name, exchange rate to the US dollar, currency; as in the reference implementation's population.
        Object[][] rows = {
            {"United States", "1", "Dollars"}, {"United Kingdom", ".625461", "Pounds"},
            {"Canada", "1.46712", "Dollars"}, {"Germany", "1.86125", "Deutsche Marks"},
            {"France", "6.24238", "Francs"}, {"Japan", "121.907", "Yen"},
            {"Netherlands", "2.09715", "Guilders"}, {"Italy", "1842.64", "Lira"},
            {"Switzerland", "1.51645", "Francs"}, {"Australia", "1.54208", "Dollars"},
            {"Algeria", "65.3851", "Dinars"}, {"Argentina", "0.998", "Pesos"},
            {"Armenia", "540.92", "Dram"}, {"Austria", "13.0949", "Schillings"},
            {"Azerbaijan", "3977", "Manat"}, {"Bahamas", "1", "Dollars"},
            {"Bahrain", ".3757", "Dinar"}, {"Bangla Desh", "48.65", "Taka"},
            {"Barbados", "2", "Dollars"}, {"Belarus", "248000", "Rouble"},
            {"Belgium", "38.3892", "Francs"}, {"Bermuda", "1", "Dollars"},
            {"Bolivia", "5.74", "Boliviano"}, {"Botswana", "4.7304", "Pula"},
            {"Brazil", "1.71", "Real"}, {"Bulgaria", "1846", "Lev"},
            {"Cayman Islands", ".8282", "Dollars"}, {"Chad", "627.1999", "Franc"},
            {"Chile", "494.2", "Pesos"}, {"China", "8.278", "Yuan Renmimbi"},
            {"Christmas Island", "1.5391", "Dollars"}, {"Colombia", "1677", "Pesos"},
            {"Croatia", "7.3044", "Kuna"}, {"Cuba", "23", "Pesos"},
            {"Cyprus", ".543", "Pounds"}, {"Czech Republic", "36.0127", "Koruna"},
            {"Denmark", "7.0707", "Kroner"}, {"Dominican Republic", "15.8", "Pesos"},
            {"Eastern Caribbean", "2.7", "Dollars"}, {"Ecuador", "9600", "Sucre"},
            {"Egypt", "3.33771", "Pounds"}, {"El Salvador", "8.7", "Colon"},
            {"Estonia", "14.9912", "Kroon"}, {"Ethiopia", "7.7", "Birr"},
            {"Falkland Island", ".6255", "Pound"}, {"Faroe Island", "7.124", "Krone"},
            {"Fiji", "1.9724", "Dollars"}, {"Finland", "5.65822", "Markka"},
            {"Gabon", "627.1999", "Franc"}, {"Gibraltar", ".6255", "Pound"},
            {"Greece", "309.214", "Drachmas"}, {"Guam", "1", "Dollars"},
            {"Hong Kong", "7.75473", "Dollars"}, {"Hungary", "237.23", "Forint"},
            {"Iceland", "74.147", "Krona"}, {"India", "42.75", "Rupees"},
            {"Indonesia", "8100", "Rupiah"}, {"Iran", "3000", "Rial"},
            {"Iraq", ".3083", "Dinar"}, {"Ireland", ".749481", "Punt"},
            {"Israel", "4.12", "Shekels"}, {"Jamaica", "37.4", "Dollars"},
            {"Jordan", "0.708", "Dinar"}, {"Kazakhstan", "150", "Tenge"},
            {"Kuwait", ".3062", "Dinar"}, {"Lebanon", "1502", "Pounds"},
            {"Luxembourg", "38.3892", "Francs"}, {"Malaysia", "3.8", "Ringgit"},
            {"Mexico", "9.6287", "Pesos"}, {"Mauritius", "25.245", "Rupees"},
            {"New Zealand", "1.87539", "Dollars"}, {"Norway", "7.83101", "Kroner"},
            {"Pakistan", "52", "Rupees"}, {"Philippines", "37.8501", "Pesos"},
            {"Poland", "3.9525", "Zloty"}, {"Portugal", "190.788", "Escudo"},
            {"Romania", "15180.2", "Leu"}, {"Russia", "24.43", "Rubles"},
            {"Saudi Arabia", "3.7501", "Riyal"}, {"Singapore", "1.72929", "Dollars"},
            {"Slovakia", "43.9642", "Koruna"}, {"South Africa", "6.25845", "Rand"},
            {"South Korea", "1190.15", "Won"}, {"Spain", "158.34", "Pesetas"},
            {"Sudan", "5.282", "Dinar"}, {"Sweden", "8.54477", "Krona"},
            {"Taiwan", "32.77", "Dollars"}, {"Thailand", "37.1414", "Baht"},
            {"Trinidad", "6.1764", "Dollars"}, {"Turkey", "401500", "Lira"},
            {"Venezuela", "596", "Bolivar"}, {"Zambia", "2447.7", "Kwacha"},
        };
        return Arrays.stream(rows)
                .map(r -> new Country((String) r[0], new BigDecimal((String) r[1]), (String) r[2]))
                .toList();
    }
}
