package io.macrodb.tpcw.check;

import io.macrodb.bench.ConsistencyCheck;
import io.macrodb.tpcw.TpcwRandom;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * What browsers created during the run is whole: every customer has its address and the user name its id
 * spells (C_UNAME = DigSyl(C_ID), which logging in depends on), every cart line belongs to a cart, and every
 * item's related items exist (Admin Confirm rewrites them).
 */
final class ReferencesResolve implements ConsistencyCheck {

    static final String NEW_CUSTOMERS = """
            SELECT c_id, c_uname, c_passwd,
                   (SELECT COUNT(*) FROM address WHERE addr_id = c_addr_id)
              FROM customer
             WHERE c_id > ?
             ORDER BY c_id""";
    static final String LINES_WITHOUT_CART = """
            SELECT scl_sc_id, scl_i_id FROM shopping_cart_line
             WHERE NOT EXISTS (SELECT 1 FROM shopping_cart WHERE sc_id = scl_sc_id)
             ORDER BY scl_sc_id, scl_i_id""";
    static final String DANGLING_RELATED = """
            SELECT i.i_id FROM item i
             WHERE NOT EXISTS (SELECT 1 FROM item r WHERE r.i_id = i.i_related1)
                OR NOT EXISTS (SELECT 1 FROM item r WHERE r.i_id = i.i_related2)
                OR NOT EXISTS (SELECT 1 FROM item r WHERE r.i_id = i.i_related3)
                OR NOT EXISTS (SELECT 1 FROM item r WHERE r.i_id = i.i_related4)
                OR NOT EXISTS (SELECT 1 FROM item r WHERE r.i_id = i.i_related5)
             ORDER BY i.i_id""";

    private final int loadedCustomers;

    ReferencesResolve(int loadedCustomers) {
        this.loadedCustomers = loadedCustomers;
    }

    @Override
    public String description() {
        return "TPC-W references: new customers have their address and DigSyl user name; cart lines have carts; "
                + "related items exist";
    }

    @Override
    public List<String> violations(Connection c) throws SQLException {
        var found = new ArrayList<String>();
        found.addAll(Violations.find(c, NEW_CUSTOMERS, rs -> {
            int id = rs.getInt(1);
            String userName = TpcwRandom.userName(id);
            if (userName.equals(rs.getString(2)) && TpcwRandom.password(userName).equals(rs.getString(3))
                    && rs.getInt(4) == 1) {
                return null;
            }
            return "customer " + id + ": user name " + rs.getString(2) + " (expected " + userName + "), "
                    + rs.getInt(4) + " address rows";
        }, loadedCustomers));
        found.addAll(Violations.find(c, LINES_WITHOUT_CART,
                rs -> "cart line of item " + rs.getInt(2) + " in missing cart " + rs.getInt(1)));
        found.addAll(Violations.find(c, DANGLING_RELATED,
                rs -> "item " + rs.getInt(1) + " has a missing related item"));
        return found;
    }
}
