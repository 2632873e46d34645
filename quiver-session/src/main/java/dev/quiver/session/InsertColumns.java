package dev.quiver.session;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.expr.CastExpr;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.ProjectionExec;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Fits a query's columns to the columns of the table it writes: by position, or by the names an
 * {@code INSERT INTO t (a, b)} lists (the other columns get NULL), each value cast to its column's
 * type. A value may go into a column of another type when a cast between the two exists in SQL's
 * assignment rules as DuckDB applies them: number to number, anything to VARCHAR, VARCHAR to
 * anything (parsed; a value that does not parse fails the statement), DATE to TIMESTAMP and back,
 * and numbers to BOOLEAN and back. Others (a DATE into an INTEGER column) are TYPE_MISMATCH.
 */
final class InsertColumns {
    private InsertColumns() {}

    /** {@code query} with the columns of {@code table} in order, for {@code INSERT INTO table [(columns)] query}. */
    static ExecutionPlan fit(ExecutionPlan query, String table, Schema target, Optional<List<String>> columns) {
        List<Field> targets = target.getFields();
        List<Field> sources = query.schema().getFields();
        int[] sourceOf = sourceColumns(table, targets, sources.size(), columns);
        List<PhysicalExpr> exprs = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int t = 0; t < targets.size(); t++) {
            Field column = targets.get(t);
            names.add(column.getName());
            int s = sourceOf[t];
            if (s < 0 || sources.get(s).getType() instanceof ArrowType.Null) {
                exprs.add(new LiteralExpr(null, column.getType()));
                continue;
            }
            Field source = sources.get(s);
            if (!assignable(source.getType(), column.getType())) {
                throw new QuiverException(ErrorCode.TYPE_MISMATCH, "INSERT INTO " + table + ": column " + column.getName() + " is "
                        + QuiverTypes.sqlName(column.getType()) + ", but the query's column " + (s + 1) + " (" + source.getName() + ") is "
                        + QuiverTypes.sqlName(source.getType()) + "; CAST it if that is what you mean");
            }
            exprs.add(CastExpr.to(new ColumnExpr(s, source.getName(), source.getType(), source.isNullable()), column.getType()));
        }
        return new ProjectionExec(exprs, names, query);
    }

    /** For each target column, the query column that fills it, or -1 for NULL. */
    private static int[] sourceColumns(String table, List<Field> targets, int sourceCount, Optional<List<String>> columns) {
        int[] sourceOf = new int[targets.size()];
        if (columns.isEmpty()) {
            if (sourceCount != targets.size()) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "Table " + table + " has " + targets.size() + " columns but the query gives "
                        + sourceCount + "; list the columns to fill, e.g. INSERT INTO " + table + " (" + targets.get(0).getName() + ") ...");
            }
            for (int t = 0; t < sourceOf.length; t++) {
                sourceOf[t] = t;
            }
            return sourceOf;
        }
        List<String> named = columns.get();
        if (named.size() != sourceCount) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "INSERT INTO " + table + " names " + named.size() + " columns but the query gives "
                    + sourceCount);
        }
        Arrays.fill(sourceOf, -1);
        Set<String> seen = new HashSet<>();
        for (int s = 0; s < named.size(); s++) {
            String name = named.get(s);
            if (!seen.add(name.toLowerCase(Locale.ROOT))) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "INSERT INTO " + table + " names column " + name + " twice");
            }
            sourceOf[indexOf(table, targets, name)] = s;
        }
        return sourceOf;
    }

    private static int indexOf(String table, List<Field> targets, String name) {
        for (int t = 0; t < targets.size(); t++) {
            if (targets.get(t).getName().equalsIgnoreCase(name)) {
                return t;
            }
        }
        throw new QuiverException(ErrorCode.COLUMN_NOT_FOUND, "Table " + table + " has no column " + name + "; its columns are "
                + String.join(", ", targets.stream().map(Field::getName).toList()));
    }

    static boolean assignable(ArrowType source, ArrowType target) {
        if (source.equals(target) || source instanceof ArrowType.Utf8 || target instanceof ArrowType.Utf8) {
            return true;
        }
        boolean sourceNumber = QuiverTypes.isNumeric(source) || source instanceof ArrowType.Bool;
        boolean targetNumber = QuiverTypes.isNumeric(target) || target instanceof ArrowType.Bool;
        if (sourceNumber && targetNumber) {
            return true;
        }
        return isDatetime(source) && isDatetime(target);
    }

    private static boolean isDatetime(ArrowType type) {
        return type instanceof ArrowType.Date || type instanceof ArrowType.Timestamp;
    }
}
