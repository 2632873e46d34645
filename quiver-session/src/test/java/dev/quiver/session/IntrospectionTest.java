package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.session.ExecutionModes.Mode;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SHOW TABLES, DESCRIBE and information_schema against DuckDB after the same statements made the
 * same tables and views in both, on a single node and on 4 local workers (static and adaptive).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IntrospectionTest {
    private static final List<String> SETUP = List.of(
            "create table items (id integer not null, name varchar, price decimal(10,2), added date, ts timestamp, score double,"
                    + " active boolean, qty bigint)",
            "insert into items values (1, 'apple', 1.50, date '2024-01-15', timestamp '2024-01-15 10:00:00', 0.5, true, 10),"
                    + " (2, 'banana', null, null, null, null, null, null), (3, 'cherry', 12.00, date '2023-12-31', null, 2.0, false, 7)",
            "create table orders as select id as item_id, qty * 2 as amount, name from items where qty is not null",
            "create view cheap as select id, name from items where price < 5");

    /** Compared row for row (each has its ORDER BY). */
    private static final List<String> QUERIES = List.of(
            "show tables",
            "describe items",
            "describe orders",
            "describe cheap",
            "select table_catalog, table_schema, table_name, table_type, is_insertable_into, is_typed from information_schema.tables order by table_name",
            "select table_name, column_name, ordinal_position, column_default, is_nullable, data_type, character_maximum_length,"
                    + " numeric_precision, numeric_precision_radix, numeric_scale from information_schema.columns"
                    + " where table_name <> 'cheap' order by table_name, ordinal_position",
            "select table_name, column_name, data_type from information_schema.columns where table_name = 'cheap' order by ordinal_position",
            "select column_name from information_schema.columns where table_name = 'items' and data_type = 'VARCHAR' order by 1",
            "select t.table_name, t.table_type, count(*) as columns from information_schema.tables t"
                    + " join information_schema.columns c on t.table_name = c.table_name group by t.table_name, t.table_type order by 1",
            "select table_name, view_definition is not null from information_schema.views where table_catalog = 'memory' order by 1",
            "select schema_name from information_schema.schemata where catalog_name = 'memory' and schema_name = 'main'");

    private DuckDbOracle duckdb;
    private ExecutionModes modes;

    @BeforeAll
    void open() throws SQLException {
        MemoryCatalog empty = new MemoryCatalog();
        duckdb = new DuckDbOracle(empty);
        modes = new ExecutionModes(empty);
        for (String sql : SETUP) {
            try (Statement statement = duckdb.connection().createStatement()) {
                statement.execute(sql);
            }
            modes.sessions().forEach(session -> session.executeScript(sql));
        }
    }

    @AfterAll
    void close() throws SQLException {
        try (DuckDbOracle closedLast = duckdb; ExecutionModes closedFirst = modes) {
            // the tables hold pool memory until they are dropped
            modes.sessions().forEach(session -> session.executeScript("drop view cheap; drop table items; drop table orders"));
            modes.assertNothingLeft();
        }
    }

    static Stream<Arguments> queries() {
        return QUERIES.stream().flatMap(sql -> Stream.of(Mode.values()).map(mode -> Arguments.of(sql, mode)));
    }

    @ParameterizedTest(name = "{1}: {0}")
    @MethodSource("queries")
    void matchesDuckDb(String sql, Mode mode) throws SQLException {
        QueryResult result = modes.run(mode, sql);
        assertThat(DuckDbOracle.normalize(result.rows())).as(sql).isEqualTo(duckdb.query(sql));
        try (Statement statement = duckdb.connection().createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            for (int c = 0; c < result.columnNames().size(); c++) {
                assertThat(result.columnNames().get(c)).as(sql).isEqualTo(rows.getMetaData().getColumnName(c + 1));
            }
        }
    }

    @Test
    void describeOfAQueryGivesItsColumnsAndTypesAsDuckDbDoes() throws SQLException {
        String sql = "describe select id, name || '!' as shout, price, count(*) over () as n from items";
        QueryResult result = modes.run(Mode.SINGLE_NODE, sql);
        List<List<Object>> expected = duckdb.query(sql).stream().map(row -> row.subList(0, 2)).toList();
        assertThat(result.rows().stream().map(row -> row.subList(0, 2)).toList()).isEqualTo(expected);
        // Quiver knows more than DuckDB here: id comes from a NOT NULL column, count(*) is never NULL
        assertThat(result.rows().stream().map(row -> row.get(2)).toList()).containsExactly("NO", "YES", "YES", "NO");
    }

    @Test
    void unknownNamesAreTableNotFoundNamingTheTable() {
        for (String sql : List.of("describe nosuch", "show columns from nosuch", "describe information_schema.nosuch",
                "select * from information_schema.nosuch", "select * from nosuch_schema.t")) {
            assertThatThrownBy(() -> modes.run(Mode.SINGLE_NODE, sql)).as(sql)
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TABLE_NOT_FOUND))
                    .hasMessageContaining("nosuch");
        }
    }

    @Test
    void showColumnsAndDescribeAgree() {
        QueryResult describe = modes.run(Mode.SINGLE_NODE, "describe items");
        assertThat(modes.run(Mode.SINGLE_NODE, "show columns from items").rows()).isEqualTo(describe.rows());
        assertThat(modes.run(Mode.SINGLE_NODE, "DESCRIBE TABLE \"items\"").rows()).isEqualTo(describe.rows());
        assertThat(modes.run(Mode.SINGLE_NODE, "describe main.items").rows()).isEqualTo(describe.rows());
        assertThat(modes.run(Mode.SINGLE_NODE, "select count(*) from main.items").rows()).containsExactly(List.of(3L));
    }
}
