package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.source.files.FileFormat;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Schema;

/** One statement of a script, as {@link StatementParser} recognised it. */
sealed interface Statement {
    /** A query: SELECT, WITH or VALUES. */
    record Query(String sql) implements Statement {
        public Query {
            requireNonNull(sql, "sql is null");
        }
    }

    /** {@code EXPLAIN [ANALYZE] [(FORMAT TEXT|DOT)] query}; without a format, the session's {@code explain_format}. */
    record Explain(String query, boolean analyze, Optional<SessionSettings.ExplainFormat> format) implements Statement {
        public Explain {
            requireNonNull(query, "query is null");
            requireNonNull(format, "format is null");
        }

        Explain(String query, boolean analyze) {
            this(query, analyze, Optional.empty());
        }
    }

    /** {@code SET name = value}. */
    record Set(String name, String value) implements Statement {
        public Set {
            requireNonNull(name, "name is null");
            requireNonNull(value, "value is null");
        }
    }

    /** {@code SHOW SETTINGS}: every setting with its value, type, default and description. */
    record ShowSettings() implements Statement {}

    /** {@code CREATE [OR REPLACE] VIEW name AS query}. */
    record CreateView(String name, String query, boolean replace) implements Statement {
        public CreateView {
            requireNonNull(name, "name is null");
            requireNonNull(query, "query is null");
        }
    }

    /** {@code DROP VIEW [IF EXISTS] name}. */
    record DropView(String name, boolean ifExists) implements Statement {
        public DropView {
            requireNonNull(name, "name is null");
        }
    }

    /**
     * {@code CREATE [OR REPLACE] EXTERNAL TABLE [IF NOT EXISTS] name [(columns)] [STORED AS format]
     * LOCATION 'path' [OPTIONS (...)]}; the location may be a glob, the options are the named
     * arguments of {@code read_parquet} / {@code read_csv}.
     */
    record CreateExternalTable(String name, Optional<Schema> columns, Optional<FileFormat> format, String location,
            boolean replace, boolean ifNotExists, Map<String, Object> options) implements Statement {
        public CreateExternalTable {
            requireNonNull(name, "name is null");
            requireNonNull(columns, "columns is null");
            requireNonNull(format, "format is null");
            requireNonNull(location, "location is null");
            options = Collections.unmodifiableMap(new LinkedHashMap<>(requireNonNull(options, "options is null")));
        }

        /** Without options. */
        public CreateExternalTable(String name, Optional<Schema> columns, Optional<FileFormat> format, String location,
                boolean replace, boolean ifNotExists) {
            this(name, columns, format, location, replace, ifNotExists, Map.of());
        }
    }

    /**
     * {@code DROP TABLE [IF EXISTS] name}: unregisters an external table, or drops a table the session
     * stores (its memory released, its files deleted).
     */
    record DropTable(String name, boolean ifExists) implements CatalogStatement {
        public DropTable {
            requireNonNull(name, "name is null");
        }
    }

    /** The statements {@link CatalogStatements} runs: introspection and the statements that write tables or files. */
    sealed interface CatalogStatement extends Statement {}

    /** {@code SHOW TABLES}: the names of the tables and views. */
    record ShowTables() implements CatalogStatement {}

    /** {@code DESCRIBE t}, {@code SHOW COLUMNS FROM t}: the columns of a table or view, by its (maybe schema-qualified) name. */
    record DescribeTable(List<String> name) implements CatalogStatement {
        public DescribeTable {
            name = List.copyOf(requireNonNull(name, "name is null"));
        }
    }

    /** {@code DESCRIBE query}: the columns the query would return. */
    record DescribeQuery(String query) implements CatalogStatement {
        public DescribeQuery {
            requireNonNull(query, "query is null");
        }
    }

    /** How a {@code CREATE TABLE} treats a table of the same name, and whether the table outlives the session's catalog. */
    record CreateMode(boolean replace, boolean ifNotExists, boolean temporary) {}

    /** {@code CREATE [OR REPLACE] [TEMP] TABLE [IF NOT EXISTS] name (column type, ...)}: an empty table. */
    record CreateTable(String name, Schema columns, CreateMode mode) implements CatalogStatement {
        public CreateTable {
            requireNonNull(name, "name is null");
            requireNonNull(columns, "columns is null");
            requireNonNull(mode, "mode is null");
        }
    }

    /** {@code CREATE [OR REPLACE] [TEMP] TABLE [IF NOT EXISTS] name AS query}: a table holding the query's rows. */
    record CreateTableAs(String name, String query, CreateMode mode) implements CatalogStatement {
        public CreateTableAs {
            requireNonNull(name, "name is null");
            requireNonNull(query, "query is null");
            requireNonNull(mode, "mode is null");
        }
    }

    /**
     * {@code INSERT INTO name [(columns)] query}, the query maybe {@code VALUES (...), ...}; or
     * {@code INSERT INTO name BY NAME query} (DuckDB's), which fills the columns the query's column names name.
     */
    record Insert(String table, Optional<List<String>> columns, String query, boolean byName) implements CatalogStatement {
        public Insert {
            requireNonNull(table, "table is null");
            columns = requireNonNull(columns, "columns is null").map(List::copyOf);
            requireNonNull(query, "query is null");
        }
    }

    /** {@code COPY (query) TO 'path' (options)} or {@code COPY table TO 'path' (options)}, the table as {@code SELECT * FROM table}. */
    record CopyTo(String query, String path, CopyOptions options) implements CatalogStatement {
        public CopyTo {
            requireNonNull(query, "query is null");
            requireNonNull(path, "path is null");
            requireNonNull(options, "options is null");
        }
    }
}
