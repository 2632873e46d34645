package dev.quiver.session.sqllogic;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One record of an {@code .slt} file: a statement or a query, with what it must give. {@link Lines}
 * says where its parts are in the file, so that the update mode can rewrite the expected results in place.
 */
sealed interface SltRecord permits SltRecord.Statement, SltRecord.Query {
    /** The file (relative to the suite's root) and the 1-based line of the record's header. */
    String file();

    int line();

    /** The SQL Quiver runs. */
    String sql();

    /** What DuckDB runs instead (a dialect difference); an empty text means DuckDB runs nothing (a statement only Quiver has). */
    Optional<String> duckDbSql();

    /** The modes the record runs in ({@code skipif}/{@code onlyif}). */
    Set<RunMode> modes();

    /** The error Quiver must raise, if the record expects one. */
    Optional<ExpectedError> error();

    /** The SQL DuckDB runs for this record. */
    default String duckDbText() {
        return duckDbSql().orElse(sql());
    }

    /** Where the record is: {@code file:line}, the name of its test. */
    default String where() {
        return file() + ":" + line();
    }

    /** Zero-based line indexes: the header, the {@code ----} separator (-1 if absent), and the line after the record. */
    record Lines(int header, int separator, int end) {}

    /** An expected error: its code, and optionally a pattern the message must contain a match of. */
    record ExpectedError(ErrorCode code, Optional<Pattern> message) {
        public ExpectedError {
            requireNonNull(code, "code is null");
            requireNonNull(message, "message is null");
        }
    }

    /** How a query's rows are compared: as a multiset (sorted by their text first), or in the order given. */
    enum SortMode {
        ROWSORT, NOSORT;

        String label() {
            return this == ROWSORT ? "rowsort" : "nosort";
        }
    }

    /** {@code statement ok} or {@code statement error CODE [pattern]}. */
    record Statement(String file, int line, String sql, Optional<String> duckDbSql, Set<RunMode> modes, Optional<ExpectedError> error)
            implements SltRecord {
        public Statement {
            requireNonNull(file, "file is null");
            requireNonNull(sql, "sql is null");
            requireNonNull(duckDbSql, "duckDbSql is null");
            modes = Set.copyOf(modes);
            requireNonNull(error, "error is null");
        }
    }

    /**
     * {@code query TYPES SORTMODE} with its expected rows (each row's values separated by tabs, see
     * {@link ValueFormat}), or {@code query error CODE [pattern]}.
     *
     * @param types one {@link ColumnType} letter per column (empty for an error query)
     * @param expected the expected rows' text, in the file's order; empty if the file has no {@code ----} yet
     */
    record Query(String file, int line, String sql, Optional<String> duckDbSql, Set<RunMode> modes, Optional<ExpectedError> error,
            List<ColumnType> types, SortMode sortMode, Optional<List<String>> expected, Lines lines) implements SltRecord {
        public Query {
            requireNonNull(file, "file is null");
            requireNonNull(sql, "sql is null");
            requireNonNull(duckDbSql, "duckDbSql is null");
            modes = Set.copyOf(modes);
            requireNonNull(error, "error is null");
            types = List.copyOf(types);
            requireNonNull(sortMode, "sortMode is null");
            expected = expected.map(List::copyOf);
            requireNonNull(lines, "lines is null");
        }
    }
}
