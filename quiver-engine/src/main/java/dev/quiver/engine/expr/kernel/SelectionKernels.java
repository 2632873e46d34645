package dev.quiver.engine.expr.kernel;

import dev.quiver.engine.batch.Take;
import dev.quiver.engine.expr.BinaryExpr;
import dev.quiver.engine.expr.BinaryOperator;
import dev.quiver.engine.expr.CaseExpr;
import dev.quiver.engine.expr.CastExpr;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.expr.ScalarFunctionExpr;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * CASE and COALESCE: choose, row by row, which argument supplies the value. A CASE branch value
 * that could fail (division, cast) is evaluated only on the rows that take the branch, so
 * {@code CASE WHEN x = 0 THEN 0 ELSE y / x END} never divides by zero.
 */
public final class SelectionKernels {
    private static final int UNDECIDED = -1;

    private SelectionKernels() {}

    public static FieldVector caseWhen(CaseExpr expr, VectorSchemaRoot batch, BufferAllocator allocator) {
        int rows = batch.getRowCount();
        int branches = expr.branches().size();
        int[] chosen = new int[rows];
        Arrays.fill(chosen, UNDECIDED);
        int undecided = rows;
        // branch index per row; 'branches' stands for ELSE (or NULL without ELSE)
        for (int b = 0; b < branches && undecided > 0; b++) {
            PhysicalExpr test = expr.branches().get(b).condition();
            try (FieldVector condition = undecided == rows || isSafe(test) ? test.evaluate(batch, allocator)
                    : evaluateWhere(test, undecidedRows(chosen), undecided, batch, allocator)) {
                BitVector bits = (BitVector) condition;
                for (int i = 0; i < rows; i++) {
                    if (chosen[i] == UNDECIDED && !bits.isNull(i) && bits.get(i) != 0) {
                        chosen[i] = b;
                        undecided--;
                    }
                }
            }
        }
        List<PhysicalExpr> values = new ArrayList<>();
        expr.branches().forEach(branch -> values.add(branch.value()));
        expr.elseValue().ifPresent(values::add);
        for (int i = 0; i < rows; i++) {
            if (chosen[i] == UNDECIDED) {
                chosen[i] = branches;
            }
        }
        return assemble(values, chosen, expr.type(), batch, allocator);
    }

    private static boolean[] undecidedRows(int[] chosen) {
        boolean[] undecided = new boolean[chosen.length];
        for (int i = 0; i < chosen.length; i++) {
            undecided[i] = chosen[i] == UNDECIDED;
        }
        return undecided;
    }

    /**
     * Builds the result: row i takes its value from {@code values.get(chosen[i])}, NULL if that
     * index has no value. Rows are written in order, as variable-width vectors require.
     */
    private static FieldVector assemble(List<PhysicalExpr> values, int[] chosen, ArrowType type, VectorSchemaRoot batch,
            BufferAllocator allocator) {
        int rows = chosen.length;
        FieldVector[] sources = new FieldVector[values.size()];
        int[] sourceRow = new int[rows];
        try {
            for (int v = 0; v < values.size(); v++) {
                int count = 0;
                for (int c : chosen) {
                    count += c == v ? 1 : 0;
                }
                if (count == 0) {
                    continue;
                }
                PhysicalExpr value = values.get(v);
                if (count == rows || isSafe(value)) {
                    sources[v] = withType(value.evaluate(batch, allocator), value.type(), type, rows, allocator);
                    for (int i = 0; i < rows; i++) {
                        sourceRow[i] = chosen[i] == v ? i : sourceRow[i];
                    }
                } else {
                    int[] indices = new int[count];
                    int next = 0;
                    for (int i = 0; i < rows; i++) {
                        if (chosen[i] == v) {
                            sourceRow[i] = next;
                            indices[next++] = i;
                        }
                    }
                    try (VectorSchemaRoot subset = Take.take(batch, indices, count, allocator)) {
                        sources[v] = withType(value.evaluate(subset, allocator), value.type(), type, count, allocator);
                    }
                }
            }
            FieldVector out = Vectors.allocate("expr", type, rows, 0, allocator);
            try {
                for (int i = 0; i < rows; i++) {
                    int c = chosen[i];
                    if (c < sources.length && sources[c] != null) {
                        out.copyFromSafe(sourceRow[i], i, sources[c]);
                    }
                }
                // rows that chose no value (CASE without ELSE) were never written: NULL, as allocated
                out.setValueCount(rows);
                return out;
            } catch (RuntimeException e) {
                out.close();
                throw e;
            }
        } finally {
            for (FieldVector source : sources) {
                if (source != null) {
                    source.close();
                }
            }
        }
    }

    /** The vector as {@code type} (the SQL layer should already have cast it; decimals of other scales are tolerated). */
    private static FieldVector withType(FieldVector vector, ArrowType actual, ArrowType type, int rows, BufferAllocator allocator) {
        if (vector.getField().getType().equals(type)) {
            return vector;
        }
        try (Operand operand = Operand.of(actual, vector, rows)) {
            return CastKernels.cast(operand, type, "CASE", rows, allocator);
        }
    }

    /**
     * Whether evaluating {@code expr} on rows that do not need it cannot fail in practice: no
     * division or modulo (by zero), no cast that parses text or narrows a number, no function call
     * (many fail on some values: {@code divide}, {@code mod}, {@code make_date}, {@code strptime} ...).
     * Overflow of + - * is not considered, to keep the common arithmetic on the fast path.
     */
    public static boolean isSafe(PhysicalExpr expr) {
        if (expr instanceof ColumnExpr || expr instanceof LiteralExpr) {
            return true;
        }
        if (expr instanceof ScalarFunctionExpr) {
            return false;
        }
        if (expr instanceof CastExpr cast && mayFail(cast)) {
            return false;
        }
        if (expr instanceof BinaryExpr binary && (binary.op() == BinaryOperator.DIVIDE || binary.op() == BinaryOperator.MODULO)) {
            return false;
        }
        return expr.children().stream().allMatch(SelectionKernels::isSafe);
    }

    private static boolean mayFail(CastExpr cast) {
        ArrowType source = cast.input().type();
        ArrowType target = cast.type();
        if (source instanceof ArrowType.Utf8) {
            return !(target instanceof ArrowType.Utf8);
        }
        return target instanceof ArrowType.Int || target instanceof ArrowType.Decimal;
    }

    /**
     * {@code expr} evaluated only on the rows where {@code needed} is set (others are NULL), so
     * that an expression that could fail is not run on rows whose result does not matter.
     */
    public static FieldVector evaluateWhere(PhysicalExpr expr, boolean[] needed, int count, VectorSchemaRoot batch, BufferAllocator allocator) {
        int rows = batch.getRowCount();
        int[] indices = new int[count];
        int next = 0;
        for (int i = 0; i < rows; i++) {
            if (needed[i]) {
                indices[next++] = i;
            }
        }
        try (VectorSchemaRoot subset = Take.take(batch, indices, count, allocator);
                FieldVector partial = expr.evaluate(subset, allocator)) {
            FieldVector out = Vectors.allocate("expr", expr.type(), rows, 0, allocator);
            try {
                for (int k = 0; k < count; k++) {
                    out.copyFromSafe(k, indices[k], partial);
                }
                out.setValueCount(rows);
                return out;
            } catch (RuntimeException e) {
                out.close();
                throw e;
            }
        }
    }

    /**
     * COALESCE: the first non-NULL argument per row. As in DuckDB and PostgreSQL, an argument is
     * evaluated only on the rows still NULL when it is reached, when evaluating it could fail
     * ({@code coalesce(id, CAST(big AS INTEGER))} fails on no row whose {@code id} is set).
     */
    public static FieldVector coalesce(List<PhysicalExpr> args, ArrowType type, VectorSchemaRoot batch, BufferAllocator allocator) {
        int rows = batch.getRowCount();
        List<FieldVector> sources = new ArrayList<>(args.size());
        try {
            boolean[] open = new boolean[rows];
            Arrays.fill(open, true);
            int remaining = rows;
            for (PhysicalExpr arg : args) {
                if (remaining == 0) {
                    break;
                }
                FieldVector source = remaining == rows || isSafe(arg) ? arg.evaluate(batch, allocator)
                        : evaluateWhere(arg, open, remaining, batch, allocator);
                sources.add(withType(source, arg.type(), type, rows, allocator));
                FieldVector added = sources.get(sources.size() - 1);
                for (int i = 0; i < rows; i++) {
                    if (open[i] && !added.isNull(i)) {
                        open[i] = false;
                        remaining--;
                    }
                }
            }
            FieldVector out = Vectors.allocate("expr", type, rows, 0, allocator);
            try {
                for (int i = 0; i < rows; i++) {
                    for (FieldVector source : sources) {
                        if (!source.isNull(i)) {
                            out.copyFromSafe(i, i, source);
                            break;
                        }
                    }
                }
                out.setValueCount(rows);
                return out;
            } catch (RuntimeException e) {
                out.close();
                throw e;
            }
        } finally {
            sources.forEach(FieldVector::close);
        }
    }

    /**
     * greatest / least: per row the largest (smallest) non-NULL argument, NULL when all are NULL.
     * Arguments already have {@code type}; they compare as comparisons do (NaN above every number).
     */
    public static FieldVector extreme(boolean greatest, List<PhysicalExpr> args, ArrowType type, VectorSchemaRoot batch,
            BufferAllocator allocator) {
        int rows = batch.getRowCount();
        BinaryOperator better = greatest ? BinaryOperator.GT : BinaryOperator.LT;
        FieldVector best = withType(args.get(0).evaluate(batch, allocator), args.get(0).type(), type, rows, allocator);
        for (int a = 1; a < args.size(); a++) {
            // the operand owns the current best from here: closed once the next one is built, or on failure
            try (Operand current = Operand.of(type, best, rows);
                    Operand candidate = Operand.evaluate(args.get(a), batch, allocator);
                    FieldVector wins = ComparisonKernels.compare(better, candidate, current, rows, allocator);
                    FieldVector values = candidate.materialize(allocator)) {
                best = pick((BitVector) wins, values, current.vector(), type, rows, allocator);
            }
        }
        return best;
    }

    /** Row i from {@code candidate} where it is not NULL and wins or the best so far is NULL, else from {@code best}. */
    private static FieldVector pick(BitVector wins, FieldVector candidate, FieldVector best, ArrowType type, int rows,
            BufferAllocator allocator) {
        FieldVector next = Vectors.allocate("expr", type, rows, 0, allocator);
        try {
            for (int i = 0; i < rows; i++) {
                boolean take = !candidate.isNull(i) && (best.isNull(i) || !wins.isNull(i) && wins.get(i) != 0);
                next.copyFromSafe(i, i, take ? candidate : best);
            }
            next.setValueCount(rows);
            return next;
        } catch (RuntimeException e) {
            next.close();
            throw e;
        }
    }
}
