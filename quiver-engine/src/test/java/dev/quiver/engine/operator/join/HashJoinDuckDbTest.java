package dev.quiver.engine.operator.join;

import static dev.quiver.engine.operator.join.JoinFixtures.LEFT;
import static dev.quiver.engine.operator.join.JoinFixtures.RIGHT;
import static dev.quiver.engine.operator.join.JoinOracle.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.operator.exchange.RepartitionExec;
import dev.quiver.engine.source.memory.MemoryScanExec;
import dev.quiver.engine.testing.TestingContext;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Random inputs joined by Quiver and by DuckDB (in process): the results must be equal as multisets. */
class HashJoinDuckDbTest {
    private static final long SEED = 20261129L;
    private static List<List<Object>> leftRows;
    private static List<List<Object>> rightRows;
    private static Connection duckdb;

    @BeforeAll
    static void setUp() throws SQLException {
        Random random = new Random(SEED);
        leftRows = randomRows(random, 3000);
        rightRows = randomRows(random, 4000);
        duckdb = DriverManager.getConnection("jdbc:duckdb:");
        load("l", "lk1 BIGINT, lk2 VARCHAR, lv INTEGER", leftRows);
        load("r", "rk1 BIGINT, rk2 VARCHAR, rv INTEGER", rightRows);
    }

    @AfterAll
    static void tearDown() throws SQLException {
        duckdb.close();
    }

    private static List<List<Object>> randomRows(Random random, int count) {
        String[] strings = {"a", "b", "c", "a longer string value"};
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Long k1 = random.nextInt(100) < 5 ? null : (long) random.nextInt(400);
            String k2 = random.nextInt(100) < 3 ? null : strings[random.nextInt(strings.length)];
            Integer v = random.nextInt(100) < 5 ? null : random.nextInt(100);
            rows.add(row(k1, k2, v));
        }
        return rows;
    }

    private static void load(String table, String columns, List<List<Object>> rows) throws SQLException {
        try (Statement statement = duckdb.createStatement()) {
            statement.execute("CREATE TABLE " + table + " (" + columns + ")");
            StringBuilder insert = new StringBuilder("INSERT INTO " + table + " VALUES ");
            for (int i = 0; i < rows.size(); i++) {
                List<Object> row = rows.get(i);
                insert.append(i == 0 ? "(" : ", (")
                        .append(row.get(0)).append(", ")
                        .append(row.get(1) == null ? "NULL" : "'" + row.get(1) + "'").append(", ")
                        .append(row.get(2)).append(")");
            }
            statement.execute(insert.toString());
        }
    }

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (JoinType type : JoinType.values()) {
            for (PartitionMode mode : PartitionMode.values()) {
                cases.add(Arguments.of(type, mode, true));
                cases.add(Arguments.of(type, mode, false));
            }
            cases.add(Arguments.of(type, null, true));
        }
        return cases.stream();
    }

    /** {@code mode == null} means the nested-loop join, with the key equality folded into its filter. */
    @ParameterizedTest(name = "{0} {1} filtered={2}")
    @MethodSource("cases")
    void sameRowsAsDuckDb(JoinType type, PartitionMode mode, boolean filtered) throws SQLException {
        String on = "l.lk1 = r.rk1 AND l.lk2 = r.rk2" + (filtered ? " AND l.lv < r.rv" : "");
        List<List<Object>> expected = duckDbRows(type, on);
        ExecutionPlan join;
        if (mode == null) {
            // the NLJ sees only a non-equi filter here; a smaller key domain keeps its output comparable
            join = new NestedLoopJoinExec(JoinFixtures.scan(LEFT, leftRows.subList(0, 300), false, 2),
                    JoinFixtures.scan(RIGHT, rightRows.subList(0, 400), false, 3), type, Optional.of(JoinFixtures.LV_LESS_THAN_RV));
            expected = duckDbRows(type, "l.lv < r.rv", "(SELECT * FROM l LIMIT 300)", "(SELECT * FROM r LIMIT 400)");
        } else {
            boolean partitioned = mode == PartitionMode.PARTITIONED;
            Optional<PhysicalExpr> filter = filtered ? Optional.of(JoinFixtures.LV_LESS_THAN_RV) : Optional.empty();
            join = new HashJoinExec(JoinFixtures.scan(LEFT, leftRows, partitioned, 3), JoinFixtures.scan(RIGHT, rightRows, partitioned, 3),
                    JoinFixtures.leftKeys(2), JoinFixtures.rightKeys(2), type, filter, mode);
        }
        try (TestingContext testing = new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(100, 3))) {
            List<List<Object>> actual = JoinTestRunner.rows(join, testing.context(), true);
            testing.reset();
            assertThat(actual).hasSameSizeAs(expected);
            // multisets as maps: AssertJ's any-order comparison is quadratic
            assertThat(counts(actual)).isEqualTo(counts(expected));
        }
    }

    /** The plan shape the SQL layer builds: hash repartitions below a partitioned join, a coalesce above it. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(JoinType.class)
    void partitionedJoinOverHashRepartitions(JoinType type) throws SQLException {
        List<PhysicalExpr> leftKeys = JoinFixtures.leftKeys(2);
        List<PhysicalExpr> rightKeys = JoinFixtures.rightKeys(2);
        ExecutionPlan left = new RepartitionExec(MemoryScanExec.split(LEFT, leftRows, 2), new Partitioning.Hash(leftKeys, 3));
        ExecutionPlan right = new RepartitionExec(MemoryScanExec.split(RIGHT, rightRows, 3), new Partitioning.Hash(rightKeys, 3));
        HashJoinExec join = new HashJoinExec(left, right, leftKeys, rightKeys, type, Optional.of(JoinFixtures.LV_LESS_THAN_RV),
                PartitionMode.PARTITIONED);
        List<List<Object>> expected = duckDbRows(type, "l.lk1 = r.rk1 AND l.lk2 = r.rk2 AND l.lv < r.rv");
        try (TestingContext testing = new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(128, 3))) {
            List<List<Object>> actual = testing.rows(join);
            assertThat(counts(actual)).isEqualTo(counts(expected));
        }
    }

    private static Map<List<Object>, Long> counts(List<List<Object>> rows) {
        return rows.stream().collect(Collectors.groupingBy(Function.identity(), HashMap::new, Collectors.counting()));
    }

    private static List<List<Object>> duckDbRows(JoinType type, String on) throws SQLException {
        return duckDbRows(type, on, "l", "r");
    }

    private static List<List<Object>> duckDbRows(JoinType type, String on, String left, String right) throws SQLException {
        String from = "FROM " + left + " l ";
        String sql = switch (type) {
            case INNER -> "SELECT l.*, r.* " + from + "JOIN " + right + " r ON " + on;
            case LEFT -> "SELECT l.*, r.* " + from + "LEFT JOIN " + right + " r ON " + on;
            case RIGHT -> "SELECT l.*, r.* " + from + "RIGHT JOIN " + right + " r ON " + on;
            case FULL -> "SELECT l.*, r.* " + from + "FULL JOIN " + right + " r ON " + on;
            case LEFT_SEMI -> "SELECT l.* " + from + "WHERE EXISTS (SELECT 1 FROM " + right + " r WHERE " + on + ")";
            case LEFT_ANTI -> "SELECT l.* " + from + "WHERE NOT EXISTS (SELECT 1 FROM " + right + " r WHERE " + on + ")";
            case RIGHT_SEMI -> "SELECT r.* FROM " + right + " r WHERE EXISTS (SELECT 1 FROM " + left + " l WHERE " + on + ")";
            case RIGHT_ANTI -> "SELECT r.* FROM " + right + " r WHERE NOT EXISTS (SELECT 1 FROM " + left + " l WHERE " + on + ")";
        };
        List<List<Object>> rows = new ArrayList<>();
        try (Statement statement = duckdb.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                List<Object> row = new ArrayList<>(columns);
                for (int c = 1; c <= columns; c++) {
                    row.add(result.getObject(c));
                }
                rows.add(row);
            }
        }
        return rows;
    }
}
