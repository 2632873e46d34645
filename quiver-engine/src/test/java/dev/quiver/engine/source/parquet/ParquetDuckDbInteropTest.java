package dev.quiver.engine.source.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files written by DuckDB (its encodings, page versions and row groups) read the same in Quiver. */
class ParquetDuckDbInteropTest {
    @TempDir
    Path dir;

    @Test
    void readsWhatDuckDbWrites() throws SQLException {
        String select = "SELECT i::BIGINT AS k, CASE WHEN i % 5 = 0 THEN NULL ELSE (i % 1000)::INTEGER END AS n, "
                + "i * 0.5::DOUBLE AS d, ((i * 7 - 3000) / 100)::DECIMAL(15,2) AS price, "
                + "CASE WHEN i % 3 = 0 THEN NULL ELSE 'str-' || (i % 37) END AS s, "
                + "CASE WHEN i % 4 = 0 THEN NULL ELSE 'comment ' || i END AS c, "
                + "DATE '1992-01-01' + (i % 2500)::INTEGER AS day, TIMESTAMP '2020-01-01 00:00:00' + INTERVAL (i) SECOND AS ts, "
                + "i % 2 = 0 AS flag, (i % 100)::DECIMAL(38,4) AS wide "
                + "FROM range(0, 20000) t(i)";
        Path v1 = dir.resolve("v1.parquet");
        Path v2 = dir.resolve("v2.parquet");
        List<List<Object>> expected = new ArrayList<>();
        try (Connection duckdb = DriverManager.getConnection("jdbc:duckdb:"); Statement statement = duckdb.createStatement()) {
            statement.execute("COPY (" + select + ") TO '" + v1 + "' (FORMAT parquet, ROW_GROUP_SIZE 4096)");
            statement.execute("COPY (" + select + ") TO '" + v2 + "' (FORMAT parquet, ROW_GROUP_SIZE 5000, PARQUET_VERSION v2, COMPRESSION zstd)");
            try (ResultSet result = statement.executeQuery(select)) {
                while (result.next()) {
                    List<Object> row = new ArrayList<>();
                    for (int c = 1; c <= 10; c++) {
                        row.add(javaValue(result.getObject(c)));
                    }
                    expected.add(row);
                }
            }
        }
        for (Path file : List.of(v1, v2)) {
            ParquetTable table = ParquetTable.open("t", file);
            assertThat(table.rowGroupCount()).isGreaterThan(1);
            assertThat(table.schema().getFields().get(3).getType()).isEqualTo(QuiverTypes.decimal(15, 2));
            try (TestingContext testing = new TestingContext()) {
                List<List<Object>> actual = new ArrayList<>(testing.rows(table.scan(ScanRequest.all(3))));
                actual.sort(Comparator.comparing(row -> (Long) row.get(0)));
                assertThat(actual).as(file.getFileName().toString()).isEqualTo(expected);
            }
        }
    }

    private static Object javaValue(Object value) {
        if (value instanceof LocalDate date) {
            return (int) date.toEpochDay();
        }
        if (value instanceof java.sql.Date date) {
            return (int) date.toLocalDate().toEpochDay();
        }
        if (value instanceof java.sql.Timestamp timestamp) {
            LocalDateTime local = timestamp.toLocalDateTime();
            return local.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + local.getNano() / 1000;
        }
        if (value instanceof LocalDateTime local) {
            return local.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + local.getNano() / 1000;
        }
        if (value instanceof BigDecimal decimal) {
            return decimal;
        }
        return value;
    }
}
