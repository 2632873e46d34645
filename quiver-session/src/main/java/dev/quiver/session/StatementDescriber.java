package dev.quiver.session;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.QuiverTypes;
import dev.quiver.sql.planner.QueryParameters;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Tells what a statement returns without running it ({@link UserSession#describe}): a query is
 * planned (or, with {@code ?} parameters, validated) for its columns; the other statements have
 * fixed schemas, and none of their effects (a SET, a CREATE) happens here.
 */
final class StatementDescriber {
    /** What describing needs of its session: planning and validating in the statement's scope. */
    interface Planning {
        /** The columns of a query without parameters, as planned. */
        Schema querySchema(String query);

        /** A query with parameters, validated. */
        QueryParameters.Prepared prepare(String query);
    }

    private StatementDescriber() {}

    static StatementDescription describe(Statement statement, String sql, Planning planning, SessionSettings.ExplainFormat explainFormat) {
        boolean parameters = !QueryParameters.markers(sql).isEmpty();
        if (parameters && !(statement instanceof Statement.Query || statement instanceof Statement.Explain)) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "Parameters (?) stand only in queries (SELECT, WITH, VALUES) and EXPLAIN;"
                    + " this statement has " + QueryParameters.markers(sql).size());
        }
        if (statement instanceof Statement.Query query) {
            if (!parameters) {
                return StatementDescription.rows(planning.querySchema(query.sql()), true);
            }
            QueryParameters.Prepared prepared = planning.prepare(query.sql());
            return StatementDescription.rows(prepared.schema(), true).withParameters(prepared.parameters());
        }
        if (statement instanceof Statement.Explain explain) {
            StatementDescription described = StatementDescription.rows(explainSchema(explain.format().orElse(explainFormat)), explain.analyze());
            return parameters ? described.withParameters(planning.prepare(explain.query()).parameters()) : described;
        }
        return describeOther(statement);
    }

    private static StatementDescription describeOther(Statement statement) {
        if (statement instanceof Statement.ShowSettings) {
            return StatementDescription.rows(SettingsResult.SCHEMA, false);
        }
        if (statement instanceof Statement.ShowTables) {
            return StatementDescription.rows(Introspection.SHOW_TABLES, false);
        }
        if (statement instanceof Statement.DescribeTable || statement instanceof Statement.DescribeQuery) {
            return StatementDescription.rows(Introspection.DESCRIBE, false);
        }
        boolean writes = statement instanceof Statement.CreateTableAs || statement instanceof Statement.Insert || statement instanceof Statement.CopyTo;
        return StatementDescription.update(writes);
    }

    /** The one column of an EXPLAIN's result, its metadata naming the plan's format ({@link QueryHandle#explainFormat()}). */
    static Schema explainSchema(SessionSettings.ExplainFormat format) {
        return new Schema(List.of(new Field("plan",
                new FieldType(false, QuiverTypes.UTF8, null, Map.of(QueryHandle.EXPLAIN_FORMAT_KEY, format.name())), List.of())));
    }

    /** Adapts two functions to {@link Planning}. */
    static Planning planning(Function<String, Schema> querySchema, Function<String, QueryParameters.Prepared> prepare) {
        return new Planning() {
            @Override
            public Schema querySchema(String query) {
                return querySchema.apply(query);
            }

            @Override
            public QueryParameters.Prepared prepare(String query) {
                return prepare.apply(query);
            }
        };
    }
}
