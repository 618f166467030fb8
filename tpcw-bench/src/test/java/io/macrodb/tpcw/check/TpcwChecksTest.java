package io.macrodb.tpcw.check;

import io.macrodb.bench.ConsistencyCheck;
import io.macrodb.bench.targets.Database;
import io.macrodb.tpcw.TinyDatabase;
import io.macrodb.tpcw.load.TpcwLoader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** The checks pass on a freshly loaded database and catch what a broken run would leave behind. */
class TpcwChecksTest {

    private Database database;
    private Connection connection;

    @BeforeEach
    void load() throws SQLException {
        database = TinyDatabase.load("h2");
        connection = database.connect();
    }

    @AfterEach
    void shutDown() throws SQLException {
        connection.close();
        database.shutdown();
    }

    private List<String> violations(Class<? extends ConsistencyCheck> kind) throws SQLException {
        for (ConsistencyCheck check : TpcwChecks.all(TinyDatabase.SCALE,
                () -> TpcwLoader.initialStocks(TinyDatabase.SCALE, TinyDatabase.SEED))) {
            if (kind.isInstance(check)) {
                List<String> found = check.violations(connection);
                connection.rollback();
                return found;
            }
        }
        throw new AssertionError("no check " + kind.getSimpleName());
    }

    private void execute(String sql) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.executeUpdate(sql);
        }
        connection.commit();
    }

    @Test
    void aFreshDatabasePassesEveryCheck() throws SQLException {
        for (ConsistencyCheck check : TpcwChecks.all(TinyDatabase.SCALE,
                () -> TpcwLoader.initialStocks(TinyDatabase.SCALE, TinyDatabase.SEED))) {
            assertEquals(List.of(), check.violations(connection), check.description());
        }
    }

    @Test
    void anOrderWithoutItsPaymentIsCaught() throws SQLException {
        execute("DELETE FROM cc_xacts WHERE cx_o_id = 5");
        assertFalse(violations(OrdersArePaid.class).isEmpty());
    }

    @Test
    void aLostStockUpdateIsCaught() throws SQLException {
        // An order line placed during the run whose stock change never happened.
        int order = TinyDatabase.SCALE.orders() + 1;
        execute("INSERT INTO orders VALUES (" + order + ", 1, CURRENT_TIMESTAMP, 10.00, 0.83, 15.83, 'AIR',"
                + " CURRENT_TIMESTAMP, 1, 1, 'PENDING')");
        execute("INSERT INTO order_line VALUES (1, " + order + ", 7, 2, 0.00, 'comment')");
        execute("INSERT INTO cc_xacts VALUES (" + order + ", 'VISA', 1234567890123456, 'A B', CURRENT_DATE,"
                + " 'AUTH', 15.83, CURRENT_TIMESTAMP, 1)");
        assertFalse(violations(StockIsConserved.class).isEmpty());
        assertEquals(List.of(), violations(NewOrdersAddUp.class), "10.00 + 0.83 + 3.00 + 2 books = 15.83");
        execute("UPDATE item SET i_stock = CASE WHEN i_stock - 2 < 10 THEN i_stock + 19 ELSE i_stock - 2 END"
                + " WHERE i_id = 7");
        assertEquals(List.of(), violations(StockIsConserved.class), "with its stock change the line is fine");
    }

    @Test
    void aNewOrderWhoseTotalDoesNotAddUpIsCaught() throws SQLException {
        int order = TinyDatabase.SCALE.orders() + 1;
        execute("INSERT INTO orders VALUES (" + order + ", 1, CURRENT_TIMESTAMP, 10.00, 0.83, 99.99, 'AIR',"
                + " CURRENT_TIMESTAMP, 1, 1, 'PENDING')");
        execute("INSERT INTO order_line VALUES (1, " + order + ", 7, 2, 0.00, 'comment')");
        assertFalse(violations(NewOrdersAddUp.class).isEmpty());
    }

    @Test
    void aCustomerWithTheWrongUserNameIsCaught() throws SQLException {
        int customer = TinyDatabase.SCALE.customers() + 1;
        execute("INSERT INTO customer (c_id, c_uname, c_passwd, c_fname, c_lname, c_addr_id, c_discount) VALUES ("
                + customer + ", 'NOBODY', 'nobody', 'A', 'B', 1, 0.00)");
        assertFalse(violations(ReferencesResolve.class).isEmpty());
    }
}
