package dev.quiver.session.sqllogic;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.files.FileFormat;
import dev.quiver.engine.source.files.FileTables;
import dev.quiver.engine.spi.TableSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/**
 * The table of nested columns the {@code .slt} files query, written as Parquet by DuckDB (so the
 * files are another engine's, as users bring them): {@code nested(id INTEGER, k INTEGER,
 * l INTEGER[], sl VARCHAR[], dl DECIMAL(9,2)[], m MAP(VARCHAR, INTEGER), im MAP(INTEGER, VARCHAR),
 * s STRUCT(x INTEGER, y VARCHAR), ll INTEGER[][])}: 40 rows with NULL lists, empty lists, NULL
 * elements, NULL and empty maps, in {@value SuiteData#FILES_PER_TABLE} files.
 */
final class NestedTables {
    static final String NAME = "nested";

    private static final String ROWS = "SELECT i AS id, i % 4 AS k, "
            + "CASE WHEN i % 7 = 3 THEN NULL WHEN i % 5 = 0 THEN [] ELSE [i, NULL, i * 10][1:1 + i % 3] END AS l, "
            + "CASE WHEN i % 6 = 2 THEN NULL WHEN i % 9 = 0 THEN [] ELSE ['s' || i, 'x'][1:1 + i % 2] END AS sl, "
            + "CASE WHEN i % 8 = 5 THEN NULL ELSE [CAST(i * 1.5 AS DECIMAL(9,2)), -0.25] END AS dl, "
            + "CASE WHEN i % 5 = 4 THEN NULL WHEN i % 8 = 0 THEN CAST(MAP {} AS MAP(VARCHAR, INTEGER)) "
            + "ELSE MAP {'a': i, 'b': CASE WHEN i % 2 = 0 THEN NULL ELSE -i END} END AS m, "
            + "MAP {i % 3: 'v' || i} AS im, "
            + "CASE WHEN i % 10 = 7 THEN NULL ELSE {'x': i, 'y': 'n' || i} END AS s, "
            + "[[i], [], NULL] AS ll "
            + "FROM range(40) t(i)";

    private NestedTables() {}

    /** Writes the table's files under {@code directory/nested/} and opens them. */
    static TableSource write(Path directory) {
        Path tableDirectory = directory.resolve(NAME);
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:"); Statement statement = connection.createStatement()) {
            Files.createDirectories(tableDirectory);
            for (int file = 0; file < SuiteData.FILES_PER_TABLE; file++) {
                String path = tableDirectory.resolve("part-" + file + ".parquet").toString().replace("'", "''");
                statement.execute("COPY (SELECT * FROM (" + ROWS + ") WHERE id % " + SuiteData.FILES_PER_TABLE + " = " + file
                        + " ORDER BY id) TO '" + path + "' (FORMAT PARQUET)");
            }
        } catch (IOException | SQLException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "DuckDB could not write the nested test table to " + tableDirectory + ": "
                    + e.getMessage(), e);
        }
        return FileTables.open(NAME, tableDirectory, Optional.of(FileFormat.PARQUET), Optional.empty());
    }
}
