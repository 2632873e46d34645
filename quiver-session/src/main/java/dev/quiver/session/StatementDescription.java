package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.sql.planner.QueryParameters;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * What a statement will return, told before it runs (what a prepared statement reports): whether it
 * returns rows, and their schema; whether running it runs a query (which a server admits against its
 * memory); the types of its {@code ?} parameters.
 *
 * @param result what the statement returns
 * @param schema the columns of its rows ({@link Result#ROWS}), else no columns
 * @param runsQuery whether executing it runs a plan: a query, EXPLAIN ANALYZE, CREATE TABLE AS, INSERT, COPY
 * @param parameters one field per {@code ?} of the statement, typed as Calcite inferred it
 */
public record StatementDescription(Result result, Schema schema, boolean runsQuery, List<Field> parameters) {
    /** What a statement gives back. */
    public enum Result {
        /** A result set, e.g. a query, EXPLAIN, SHOW, DESCRIBE. */
        ROWS,
        /** A count of rows written (INSERT, CREATE TABLE AS, COPY), or nothing (SET, CREATE VIEW, DROP ...). */
        UPDATE
    }

    public StatementDescription {
        requireNonNull(result, "result is null");
        requireNonNull(schema, "schema is null");
        parameters = List.copyOf(requireNonNull(parameters, "parameters is null"));
    }

    /**
     * {@code sql} (the described statement) with {@code values} in place of its parameters, as typed
     * literals; a value of the wrong type is TYPE_MISMATCH, a wrong count INVALID_ARGUMENT.
     */
    public String bind(String sql, List<?> values) {
        return QueryParameters.bind(requireNonNull(sql, "sql is null"), parameters, requireNonNull(values, "values is null"));
    }

    static StatementDescription rows(Schema schema, boolean runsQuery) {
        return new StatementDescription(Result.ROWS, schema, runsQuery, List.of());
    }

    static StatementDescription update(boolean runsQuery) {
        return new StatementDescription(Result.UPDATE, new Schema(List.of()), runsQuery, List.of());
    }

    StatementDescription withParameters(List<Field> types) {
        return new StatementDescription(result, schema, runsQuery, types);
    }
}
