package io.macrodb.runtime.capture;

/**
 * How an engine's SQL changes exactly one row of a table without a primary key, found by its old values (see
 * {@link CapturedTable}).
 *
 * @param limitOneRow the clause that ends an UPDATE or DELETE to make it touch one row at most
 * @param arrayEquals the operator that finds an array equal to a bound array, NULL elements included: SQL's
 *                    {@code =} is unknown for such arrays on H2 (so it matched no row, and every slave failed),
 *                    while HSQLDB's {@code =} holds for them and HSQLDB refuses an array in
 *                    {@code IS NOT DISTINCT FROM}
 */
public record KeylessMatch(String limitOneRow, String arrayEquals) {
}
