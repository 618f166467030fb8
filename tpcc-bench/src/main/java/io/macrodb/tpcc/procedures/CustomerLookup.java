package io.macrodb.tpcc.procedures;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;

/**
 * Finding a customer by last name, as Payment and Order-Status do (clauses 2.5.2.2 and 2.6.2.2): all customers of
 * the district with that name, sorted by first name, and the one at position ceil(n / 2).
 */
final class CustomerLookup {

    static final String CUSTOMERS_BY_LAST_NAME = """
            SELECT c_id
              FROM customer
             WHERE c_w_id = ? AND c_d_id = ? AND c_last = ?
             ORDER BY c_first""";

    private CustomerLookup() {
    }

    /** The middle customer's id, or throws if no customer has that name (the loader guarantees one). */
    static int byLastName(PreparedStatement byName, int warehouseId, int districtId, String lastName)
            throws SQLException {
        byName.setInt(1, warehouseId);
        byName.setInt(2, districtId);
        byName.setString(3, lastName);
        var ids = new ArrayList<Integer>();
        try (ResultSet rs = byName.executeQuery()) {
            while (rs.next()) {
                ids.add(rs.getInt(1));
            }
        }
        if (ids.isEmpty()) {
            throw Procedure.missing("customer named " + lastName + " in district " + warehouseId + "/" + districtId);
        }
        return ids.get((ids.size() - 1) / 2);
    }
}
