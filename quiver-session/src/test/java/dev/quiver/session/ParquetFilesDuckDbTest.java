package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.duckdb.DuckDBStruct;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Parquet files as DuckDB writes them: LIST, STRUCT and MAP columns beside flat ones, UUID, TIME,
 * TIMESTAMP WITH TIME ZONE, DECIMALs of every width, every codec DuckDB writes, data pages v1 and
 * v2 (with its DELTA and BYTE_STREAM_SPLIT encodings), dictionaries. Quiver reads each and equals
 * DuckDB's answers over the same file, on one node and on four local workers.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ParquetFilesDuckDbTest {
    private static final List<String> FILES = List.of("uncompressed", "snappy", "gzip", "zstd", "lz4", "v2");

    @TempDir
    static Path directory;

    private DuckDbOracle duckdb;
    private ExecutionModes modes;

    @BeforeAll
    void writeFiles() throws SQLException {
        duckdb = new DuckDbOracle(new MemoryCatalog());
        modes = new ExecutionModes(new MemoryCatalog());
        try (Statement statement = duckdb.connection().createStatement()) {
            statement.execute("SET TimeZone = 'UTC'");
            statement.execute("CREATE TABLE t AS SELECT i AS id, i % 7 AS k, 'value ' || (i % 5) AS s, "
                    + "[i, i + 1, NULL] AS ints, CASE WHEN i % 4 = 0 THEN NULL ELSE ['a' || i, 'b'] END AS strs, "
                    + "{'x': i, 'y': 'v' || i, 'z': [i * 1.5]} AS rec, "
                    + "CASE WHEN i % 3 = 0 THEN NULL ELSE MAP {'k' || i: i, 'j': NULL} END AS m, "
                    + "[[i], [], NULL] AS nested, "
                    + "CAST('00000000-0000-0000-0000-' || lpad(CAST(i AS VARCHAR), 12, '0') AS UUID) AS u, "
                    + "TIME '12:00:00' + INTERVAL (i) SECOND + INTERVAL (i * 1000) MICROSECOND AS tm, "
                    + "TIMESTAMPTZ '2024-01-01 00:00:00+00' + INTERVAL (i) HOUR AS tz, "
                    + "CAST(i * 1.5 AS DECIMAL(9,2)) AS d9, CAST(i * 1.5 AS DECIMAL(18,3)) AS d18, CAST(i * 1.5 AS DECIMAL(38,4)) AS d38, "
                    + "CAST(i * 0.25 AS DOUBLE) AS f, CAST(i % 100 AS TINYINT) AS tiny, CAST(i AS UBIGINT) + 18446744073709550000 AS ub "
                    + "FROM range(300) t(i)");
            for (String codec : FILES.subList(0, 5)) {
                statement.execute("COPY t TO '" + file(codec) + "' (FORMAT PARQUET, COMPRESSION " + codec + ", ROW_GROUP_SIZE 100)");
            }
            statement.execute("COPY t TO '" + file("v2") + "' (FORMAT PARQUET, PARQUET_VERSION V2, ROW_GROUP_SIZE 100)");
        }
    }

    @AfterAll
    void tearDown() throws SQLException {
        try (DuckDbOracle closedLast = duckdb; ExecutionModes closedFirst = modes) {
            modes.assertNothingLeft();
        }
    }

    private static String file(String name) {
        return directory.resolve(name + ".parquet").toString();
    }

    static Stream<Arguments> filesAndModes() {
        return FILES.stream().flatMap(file -> Stream.of(ExecutionModes.Mode.values()).map(mode -> Arguments.of(file, mode)));
    }

    @ParameterizedTest
    @MethodSource("filesAndModes")
    void flatColumnsOfAFileWithNestedOnes(String file, ExecutionModes.Mode mode) throws SQLException {
        assertSame(mode, "SELECT id, k, s, d9, d18, d38, f, tiny, ub FROM '%s' WHERE k = 3 ORDER BY id", file);
        assertSame(mode, "SELECT k, count(*), sum(d38), min(s), max(f) FROM '%s' GROUP BY k ORDER BY k", file);
    }

    @ParameterizedTest
    @MethodSource("filesAndModes")
    void nestedColumnsAreProjected(String file, ExecutionModes.Mode mode) throws SQLException {
        assertSame(mode, "SELECT id, ints, strs, rec, m, nested FROM '%s' WHERE id < 30 OR id > 290 ORDER BY id", file);
    }

    @Test
    void uuidTimeAndTimestampWithTimeZone() throws SQLException {
        for (String file : FILES) {
            // UUID and TIME read as their text, TIMESTAMPTZ as a TIMESTAMP in UTC
            assertSame(ExecutionModes.Mode.SINGLE_NODE, "SELECT id, CAST(u AS VARCHAR), CAST(tm AS VARCHAR), tz FROM '%s' ORDER BY id",
                    "SELECT id, u, tm, tz FROM '%s' ORDER BY id", file);
        }
        QueryResult result = modes.run(ExecutionModes.Mode.SINGLE_NODE, "SELECT u, tm, tz, ints, rec, m FROM '" + file("v2") + "' LIMIT 1");
        assertThat(result.schema().getFields().subList(0, 3)).extracting(field -> field.getType())
                .containsExactly(QuiverTypes.UTF8, QuiverTypes.UTF8, QuiverTypes.TIMESTAMP);
        assertThat(result.schema().getFields().get(3).getChildren()).hasSize(1);
    }

    /** The files hold what the tests above are about: each codec, dictionaries, and in v2 the DELTA encodings. */
    @Test
    void theFilesHoldTheirCodecsAndEncodings() throws SQLException {
        Map<String, String> codecs = Map.of("uncompressed", "UNCOMPRESSED", "snappy", "SNAPPY", "gzip", "GZIP", "zstd", "ZSTD", "lz4", "LZ4_RAW",
                "v2", "SNAPPY");
        for (String file : FILES) {
            List<List<Object>> chunks = duckdb("SELECT DISTINCT compression, encodings FROM parquet_metadata('" + file(file) + "')");
            assertThat(chunks).as(file).allSatisfy(chunk -> assertThat(chunk.get(0)).isEqualTo(codecs.get(file)));
            assertThat(chunks).as(file).anySatisfy(chunk -> assertThat((String) chunk.get(1)).containsPattern("(PLAIN|RLE)_DICTIONARY"));
        }
        assertThat(duckdb("SELECT DISTINCT encodings FROM parquet_metadata('" + file("v2") + "')"))
                .anySatisfy(chunk -> assertThat((String) chunk.get(0)).contains("DELTA_BINARY_PACKED"));
    }

    private void assertSame(ExecutionModes.Mode mode, String sql, String file) throws SQLException {
        assertSame(mode, sql, sql, file);
    }

    private void assertSame(ExecutionModes.Mode mode, String duckSql, String quiverSql, String file) throws SQLException {
        List<List<Object>> expected = duckdb(duckSql.replace("%s", file(file)));
        QueryResult result = modes.run(mode, quiverSql.replace("%s", file(file)));
        assertThat(normalize(result.rows())).as(quiverSql + " over " + file).isEqualTo(expected);
        assertThat(expected).isNotEmpty();
    }

    private List<List<Object>> duckdb(String sql) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (Statement statement = duckdb.connection().createStatement(); ResultSet result = statement.executeQuery(sql)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= columns; i++) {
                    row.add(fromDuckDb(result.getObject(i)));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    /** DuckDB's JDBC values as Quiver's: lists, maps and structs as Java collections, times as numbers. */
    private static Object fromDuckDb(Object value) throws SQLException {
        if (value instanceof Array array) {
            List<Object> list = new ArrayList<>();
            for (Object element : (Object[]) array.getArray()) {
                list.add(fromDuckDb(element));
            }
            return list;
        }
        if (value instanceof DuckDBStruct struct) {
            return fromDuckDb(struct.getMap());
        }
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> copy = new LinkedHashMap<>();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                copy.put(fromDuckDb(entry.getKey()), fromDuckDb(entry.getValue()));
            }
            return copy;
        }
        if (value instanceof UUID uuid) {
            return uuid.toString();
        }
        if (value instanceof OffsetDateTime time) {
            return time.toEpochSecond() * 1_000_000L + time.getNano() / 1000;
        }
        if (value instanceof LocalDateTime time) {
            return time.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + time.getNano() / 1000;
        }
        if (value instanceof LocalDate date) {
            return (int) date.toEpochDay();
        }
        if (value instanceof java.math.BigInteger big) {
            return new BigDecimal(big);
        }
        return DuckDbOracle.normalize(value);
    }

    private static List<List<Object>> normalize(List<List<Object>> rows) {
        List<List<Object>> out = new ArrayList<>();
        for (List<Object> row : rows) {
            out.add(row.stream().map(ParquetFilesDuckDbTest::normalizeValue).toList());
        }
        return out;
    }

    private static Object normalizeValue(Object value) {
        if (value instanceof List<?> list) {
            return list.stream().map(ParquetFilesDuckDbTest::normalizeValue).toList();
        }
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> copy = new LinkedHashMap<>();
            map.forEach((key, item) -> copy.put(normalizeValue(key), normalizeValue(item)));
            return copy;
        }
        if (value instanceof BigDecimal decimal && decimal.scale() == 0 && decimal.precision() > 18) {
            return decimal;
        }
        return DuckDbOracle.normalize(value);
    }
}
