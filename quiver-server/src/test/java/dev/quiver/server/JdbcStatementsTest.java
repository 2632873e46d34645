package dev.quiver.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.source.tpch.TpchQueries;
import dev.quiver.session.tpch.AnswerFile;
import dev.quiver.session.tpch.ResultComparator;
import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchTable;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Statements, prepared statements with parameters, catalog metadata, sessions and errors through the
 * Arrow Flight SQL JDBC driver; results against the TPC-H answer files and the TPC-H schema.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JdbcStatementsTest {
    private ServerFixture fixture;

    @BeforeAll
    void start() {
        fixture = ServerFixture.tpch(0.01);
    }

    @AfterAll
    void stop() {
        fixture.close();
    }

    /** TPC-H q6 with its five substitution parameters bound as values: the answer file's revenue. */
    @Test
    void preparedStatementWithParameters() throws SQLException {
        String q6 = "select sum(l_extendedprice * l_discount) as revenue from lineitem where l_shipdate >= ? and l_shipdate < ?"
                + " and l_discount between ? - 0.01 and ? + 0.01 and l_quantity < ?";
        try (Connection connection = fixture.connect(); PreparedStatement statement = connection.prepareStatement(q6)) {
            assertThat(statement.getParameterMetaData().getParameterCount()).isEqualTo(5);
            assertThat(statement.getParameterMetaData().getParameterType(1)).isEqualTo(Types.DATE);
            statement.setDate(1, java.sql.Date.valueOf("1994-01-01"));
            statement.setDate(2, java.sql.Date.valueOf("1995-01-01"));
            statement.setBigDecimal(3, new BigDecimal("0.06"));
            statement.setBigDecimal(4, new BigDecimal("0.06"));
            statement.setBigDecimal(5, new BigDecimal("24.00"));
            try (ResultSet rows = statement.executeQuery()) {
                JdbcResults results = JdbcResults.read(rows);
                ResultComparator.assertMatches("q6", results.schema(), results.rows(), AnswerFile.parse(TpchQueries.answer(6)).rows());
            }
            // executed again with other values: a year with no shipments has no revenue
            statement.setDate(1, java.sql.Date.valueOf("2010-01-01"));
            statement.setDate(2, java.sql.Date.valueOf("2011-01-01"));
            try (ResultSet rows = statement.executeQuery()) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getBigDecimal(1)).isNull();
            }
        }
    }

    @Test
    void stringAndIntegerParameters() throws SQLException {
        try (Connection connection = fixture.connect();
                PreparedStatement statement = connection.prepareStatement("select n_name from nation where n_regionkey = ? and n_name <> ? order by n_name")) {
            statement.setInt(1, 1);
            statement.setString(2, "CANADA");
            try (ResultSet rows = statement.executeQuery()) {
                List<String> names = new ArrayList<>();
                while (rows.next()) {
                    names.add(rows.getString(1));
                }
                // TPC-H region 1 is AMERICA: ARGENTINA, BRAZIL, CANADA, PERU, UNITED STATES
                assertThat(names).containsExactly("ARGENTINA", "BRAZIL", "PERU", "UNITED STATES");
            }
        }
    }

    @Test
    void tablesAndColumnsThroughDatabaseMetaData() throws SQLException {
        try (Connection connection = fixture.connect()) {
            DatabaseMetaData metadata = connection.getMetaData();
            assertThat(metadata.getDatabaseProductName()).isEqualTo("Quiver");
            List<String> tables = new ArrayList<>();
            try (ResultSet rows = metadata.getTables(null, "main", "%", new String[] {"TABLE"})) {
                while (rows.next()) {
                    assertThat(rows.getString("TABLE_CAT")).isEqualTo("memory");
                    tables.add(rows.getString("TABLE_NAME"));
                }
            }
            assertThat(tables).containsExactlyInAnyOrderElementsOf(TpchTable.getTables().stream().map(TpchTable::getTableName).toList());
            List<String> columns = new ArrayList<>();
            List<Integer> types = new ArrayList<>();
            try (ResultSet rows = metadata.getColumns(null, "main", "lineitem", "%")) {
                while (rows.next()) {
                    columns.add(rows.getString("COLUMN_NAME"));
                    types.add(rows.getInt("DATA_TYPE"));
                }
            }
            assertThat(columns).containsExactlyElementsOf(TpchTable.LINE_ITEM.getColumns().stream().map(TpchColumn::getColumnName).toList());
            assertThat(types.get(columns.indexOf("l_extendedprice"))).isEqualTo(Types.DECIMAL);
            assertThat(types.get(columns.indexOf("l_shipdate"))).isEqualTo(Types.DATE);
            try (ResultSet rows = metadata.getSchemas()) {
                List<String> schemas = new ArrayList<>();
                while (rows.next()) {
                    schemas.add(rows.getString("TABLE_SCHEM"));
                }
                assertThat(schemas).contains("main", "information_schema");
            }
        }
    }

    @Test
    void viewsAreSharedAndSettingsArePerConnection() throws SQLException {
        try (Connection first = fixture.connect(); Connection second = fixture.connect();
                Statement one = first.createStatement(); Statement two = second.createStatement()) {
            assertThat(one.executeUpdate("create or replace view asia as select n_name from nation where n_regionkey = 2")).isZero();
            one.execute("set batch_size = 100");
            assertThat(single(two, "select count(*) from asia")).isEqualTo("5");
            assertThat(single(one, "select current_setting('batch_size')")).isEqualTo("100");
            assertThat(single(two, "select current_setting('batch_size')")).isEqualTo("8192");
            try (ResultSet views = second.getMetaData().getTables(null, null, "asia", new String[] {"VIEW"})) {
                assertThat(views.next()).isTrue();
            }
            two.executeUpdate("drop view asia");
        }
    }

    @Test
    void writesReturnTheirCounts() throws SQLException {
        try (Connection connection = fixture.connect(); Statement statement = connection.createStatement()) {
            statement.executeUpdate("create table jdbc_counts (k int, v varchar)");
            assertThat(statement.executeUpdate("insert into jdbc_counts values (1, 'a'), (2, 'b'), (3, null)")).isEqualTo(3);
            assertThat(statement.executeUpdate("insert into jdbc_counts select n_nationkey, n_name from nation")).isEqualTo(25);
            assertThat(single(statement, "select count(v) from jdbc_counts")).isEqualTo("27");
            statement.executeUpdate("drop table jdbc_counts");
        }
    }

    @Test
    void errorArrivesAsSqlExceptionWithQuiverCodeAndMessage() throws SQLException {
        try (Connection connection = fixture.connect(); Statement statement = connection.createStatement()) {
            assertThatThrownBy(() -> statement.executeQuery("select * from no_such_table"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("TABLE_NOT_FOUND")
                    .hasMessageContaining("no_such_table");
            assertThatThrownBy(() -> statement.executeQuery("select 1 / 0"))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("DIVISION_BY_ZERO");
            // the connection stays usable
            assertThat(single(statement, "select count(*) from region")).isEqualTo("5");
        }
    }

    private static String single(Statement statement, String sql) throws SQLException {
        try (ResultSet rows = statement.executeQuery(sql)) {
            assertThat(rows.next()).isTrue();
            return rows.getString(1);
        }
    }
}
