package dev.quiver.session.sqllogic;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * DuckDB in-process over the same Parquet files Quiver reads: the oracle of the SQL-file suite and of
 * TPC-DS. NULLs sort as the largest value (last ascending, first descending), as in Quiver and
 * PostgreSQL; everything else is DuckDB's default.
 */
final class DuckDbDatabase implements AutoCloseable {
    private final Connection connection;

    /** A DuckDB result: each column's type letter and the rows as canonical lines ({@link ValueFormat}). */
    record Result(List<ColumnType> types, List<String> lines) {
        Result {
            types = List.copyOf(types);
            lines = List.copyOf(lines);
        }
    }

    private DuckDbDatabase(Connection connection) {
        this.connection = requireNonNull(connection, "connection is null");
    }

    /** A database holding a table per directory of Parquet files: {@code <name>} from {@code <directory>/<name>/*.parquet}. */
    static DuckDbDatabase load(Path directory, List<String> tables) throws SQLException {
        DuckDbDatabase database = new DuckDbDatabase(DriverManager.getConnection("jdbc:duckdb:"));
        try {
            database.execute("SET default_null_order = 'nulls_last_on_asc_first_on_desc'");
            database.execute("SET threads = 2");
            for (String table : tables) {
                String files = directory.resolve(table).resolve("*.parquet").toString().replace("'", "''");
                database.execute("CREATE TABLE " + table + " AS SELECT * FROM read_parquet('" + files + "')");
            }
        } catch (SQLException | RuntimeException e) {
            database.close();
            throw e;
        }
        return database;
    }

    /** Runs a statement that returns no rows (or whose rows are dropped). */
    void execute(String sql) throws SQLException {
        // a failing execute() closes its Statement: use a fresh one each time
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    Result query(String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet results = statement.executeQuery(sql)) {
            ResultSetMetaData meta = results.getMetaData();
            List<ColumnType> types = new ArrayList<>();
            for (int c = 1; c <= meta.getColumnCount(); c++) {
                types.add(ColumnType.ofDuckDb(meta.getColumnTypeName(c)));
            }
            List<List<Object>> rows = new ArrayList<>();
            while (results.next()) {
                List<Object> row = new ArrayList<>(types.size());
                for (int c = 1; c <= types.size(); c++) {
                    row.add(switch (types.get(c - 1)) {
                        case DATE -> results.getObject(c, LocalDate.class);
                        case TIMESTAMP -> results.getObject(c, LocalDateTime.class);
                        default -> results.getObject(c);
                    });
                }
                rows.add(row);
            }
            return new Result(types, ResultMatcher.lines(types, rows));
        }
    }

    /** The names of the views and tables that exist now, to drop what a file created. */
    Set<String> relations() throws SQLException {
        Set<String> names = new TreeSet<>();
        try (Statement statement = connection.createStatement();
                ResultSet results = statement.executeQuery("SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'")) {
            while (results.next()) {
                names.add(results.getString(1));
            }
        }
        return names;
    }

    /** Drops the views and tables that do not belong to {@code keep}. */
    void dropAllBut(Set<String> keep) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet results = statement.executeQuery("SELECT table_name, table_type FROM information_schema.tables WHERE table_schema = 'main'")) {
            List<String> drops = new ArrayList<>();
            while (results.next()) {
                if (!keep.contains(results.getString(1))) {
                    drops.add("DROP " + (results.getString(2).equals("VIEW") ? "VIEW" : "TABLE") + " IF EXISTS \"" + results.getString(1) + "\" CASCADE");
                }
            }
            for (String drop : drops) {
                execute(drop);
            }
        }
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
