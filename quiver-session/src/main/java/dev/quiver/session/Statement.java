package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.source.files.FileFormat;
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

    /** {@code EXPLAIN [ANALYZE] query}. */
    record Explain(String query, boolean analyze) implements Statement {
        public Explain {
            requireNonNull(query, "query is null");
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

    /** {@code CREATE [OR REPLACE] EXTERNAL TABLE [IF NOT EXISTS] name [(columns)] [STORED AS format] LOCATION 'path'}. */
    record CreateExternalTable(String name, Optional<Schema> columns, Optional<FileFormat> format, String location,
            boolean replace, boolean ifNotExists) implements Statement {
        public CreateExternalTable {
            requireNonNull(name, "name is null");
            requireNonNull(columns, "columns is null");
            requireNonNull(format, "format is null");
            requireNonNull(location, "location is null");
        }
    }

    /** {@code DROP TABLE [IF EXISTS] name}: unregisters an external table. */
    record DropTable(String name, boolean ifExists) implements Statement {
        public DropTable {
            requireNonNull(name, "name is null");
        }
    }
}
