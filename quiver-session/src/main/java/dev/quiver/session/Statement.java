package dev.quiver.session;

import static java.util.Objects.requireNonNull;

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
}
