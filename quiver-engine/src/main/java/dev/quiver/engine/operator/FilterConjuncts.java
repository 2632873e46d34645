package dev.quiver.engine.operator;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.batch.Filter;
import dev.quiver.engine.expr.BinaryExpr;
import dev.quiver.engine.expr.BinaryOperator;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.InListExpr;
import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.expr.kernel.ComparisonKernels;
import dev.quiver.engine.expr.kernel.InListKernels;
import dev.quiver.engine.expr.kernel.LongRange;
import dev.quiver.engine.expr.kernel.Numeric;
import dev.quiver.engine.expr.kernel.SelectionKernels;
import dev.quiver.engine.expr.kernel.SelectionVectors;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * A filter predicate split at its top-level ANDs and evaluated conjunct by conjunct on a selection
 * vector, each conjunct only on the rows the ones before it passed, as DuckDB's filters do: in
 * {@code a AND b AND c}, {@code c} reads only the rows that passed {@code a} and {@code b}.
 *
 * <p>A column compared with a constant (numbers, dates and timestamps as a {@link LongRange},
 * strings for equality, and short IN lists) is tested straight off the column's buffer at the selected positions;
 * comparisons of one column with constants merge into one range ({@code x >= 5 AND x < 9}).
 * Those conjuncts cannot fail, so they go first; every other conjunct keeps its place after them.
 * A conjunct that could fail (a division, a narrowing cast) is only evaluated on the rows still
 * selected, so {@code x <> 0 AND y / x > 1} never divides by zero; others are evaluated on a
 * gathered copy of the rows still selected when that is at most half the batch, and over the
 * whole batch otherwise.
 */
final class FilterConjuncts {
    private final List<Conjunct> conjuncts;

    private FilterConjuncts(List<Conjunct> conjuncts) {
        this.conjuncts = List.copyOf(conjuncts);
    }

    static FilterConjuncts of(PhysicalExpr predicate) {
        List<PhysicalExpr> split = new ArrayList<>();
        splitAnd(predicate, split);
        List<Conjunct> direct = new ArrayList<>();
        List<Conjunct> rest = new ArrayList<>();
        for (PhysicalExpr conjunct : split) {
            Optional<Conjunct> fast = ColumnRange.of(conjunct).or(() -> ValueIn.of(conjunct));
            if (fast.isPresent()) {
                addMerged(direct, fast.get());
            } else {
                rest.add(new Expression(conjunct));
            }
        }
        direct.addAll(rest);
        return new FilterConjuncts(direct);
    }

    /** How many conjuncts the predicate was evaluated as (merged ranges count once). */
    int size() {
        return conjuncts.size();
    }

    /**
     * Writes the positions of the rows of {@code batch} that pass every conjunct to the front of
     * {@code positions} (at least the batch's row count long), in ascending order, and returns how
     * many there are.
     */
    int select(VectorSchemaRoot batch, int[] positions, BufferAllocator allocator) {
        // a predicate splits into at least one conjunct: the first reads every row and writes the positions
        int count = conjuncts.get(0).keep(batch, positions, batch.getRowCount(), true, allocator);
        for (int c = 1; c < conjuncts.size() && count > 0; c++) {
            count = conjuncts.get(c).keep(batch, positions, count, false, allocator);
        }
        return count;
    }

    private static void splitAnd(PhysicalExpr expr, List<PhysicalExpr> out) {
        if (expr instanceof BinaryExpr binary && binary.op() == BinaryOperator.AND) {
            splitAnd(binary.left(), out);
            splitAnd(binary.right(), out);
        } else {
            out.add(expr);
        }
    }

    /** Adds {@code conjunct}, intersecting it with an earlier range over the same column where both are inside ranges. */
    private static void addMerged(List<Conjunct> direct, Conjunct conjunct) {
        if (conjunct instanceof ColumnRange range && !range.range().outside()) {
            for (int i = 0; i < direct.size(); i++) {
                if (direct.get(i) instanceof ColumnRange earlier && earlier.column() == range.column()
                        && earlier.type().equals(range.type()) && !earlier.range().outside()) {
                    PhysicalExpr both = new BinaryExpr(BinaryOperator.AND, earlier.fallback().expr(), range.fallback().expr(),
                            earlier.fallback().expr().type());
                    direct.set(i, new ColumnRange(earlier.column(), earlier.type(), earlier.range().intersect(range.range()),
                            new Expression(both)));
                    return;
                }
            }
        }
        direct.add(conjunct);
    }

    /** One conjunct: narrows the selection to the rows it passes. */
    private sealed interface Conjunct permits ColumnRange, ValueIn, Expression {
        int keep(VectorSchemaRoot batch, int[] positions, int count, boolean dense, BufferAllocator allocator);
    }

    /**
     * {@code column op constant} over integers, dates, timestamps or decimals of at most 18
     * digits; {@code fallback} is the comparison itself, for a batch whose vector is not read
     * directly.
     */
    private record ColumnRange(int column, ArrowType type, LongRange range, Expression fallback) implements Conjunct {
        ColumnRange {
            requireNonNull(type, "type is null");
            requireNonNull(range, "range is null");
            requireNonNull(fallback, "fallback is null");
        }

        static Optional<Conjunct> of(PhysicalExpr expr) {
            if (!(expr instanceof BinaryExpr binary) || !isComparison(binary.op())) {
                return Optional.empty();
            }
            BinaryOperator op = binary.op();
            PhysicalExpr columnSide = binary.left();
            PhysicalExpr constantSide = binary.right();
            if (columnSide instanceof LiteralExpr) {
                columnSide = binary.right();
                constantSide = binary.left();
                op = ComparisonKernels.flip(op);
            }
            if (!(columnSide instanceof ColumnExpr column) || !(constantSide instanceof LiteralExpr literal) || literal.value() == null
                    || !readsDirectly(column.type()) || !Numeric.isLongDomain(literal.type())
                    || literal.type() instanceof ArrowType.Bool) {
                return Optional.empty();
            }
            return LongRange.of(op, column.type(), literal.value(), literal.type())
                    .map(range -> new ColumnRange(column.index(), column.type(), range, new Expression(expr)));
        }

        @Override
        public int keep(VectorSchemaRoot batch, int[] positions, int count, boolean dense, BufferAllocator allocator) {
            FieldVector vector = batch.getVector(column);
            int width = LongRange.directWidth(vector, type);
            if (width == 0) {
                return fallback.keep(batch, positions, count, dense, allocator);
            }
            return SelectionVectors.keepInRange(vector, width, range, positions, count, dense);
        }

        /** Whether a column of {@code type} arrives as a vector that {@link LongRange#directWidth} reads. */
        private static boolean readsDirectly(ArrowType type) {
            return type instanceof ArrowType.Int i && i.getBitWidth() >= 32
                    || type instanceof ArrowType.Date date && date.getUnit() == DateUnit.DAY
                    || type instanceof ArrowType.Timestamp
                    || type instanceof ArrowType.Decimal d && d.getBitWidth() == 128 && d.getPrecision() <= 18;
        }
    }

    /**
     * {@code column IN (constants)} over VARCHAR or the integer kinds {@link ColumnRange} reads, for
     * lists of up to {@link #MAX_VALUES} values, each compared in turn; and {@code column = 'c'} and
     * {@code column <> 'c'} over VARCHAR, as the IN list of one string (not in it, for {@code <>}).
     * A NULL in the list only turns the non-matches into NULL, which a filter drops as it drops
     * FALSE. NOT IN stays general: a NULL in its list makes every row NULL.
     */
    private record ValueIn(int column, ArrowType type, byte[][] strings, long[] longs, boolean negate, Expression fallback)
            implements Conjunct {
        static final int MAX_VALUES = 16;

        ValueIn {
            requireNonNull(type, "type is null");
            requireNonNull(fallback, "fallback is null");
        }

        static Optional<Conjunct> of(PhysicalExpr expr) {
            return expr instanceof InListExpr in ? ofInList(in) : ofStringComparison(expr);
        }

        private static Optional<Conjunct> ofInList(InListExpr in) {
            if (in.negated() || !(in.input() instanceof ColumnExpr column) || in.values().size() > MAX_VALUES) {
                return Optional.empty();
            }
            List<Object> constants = in.values().stream().filter(Objects::nonNull).toList();
            if (column.type() instanceof ArrowType.Utf8) {
                byte[][] strings = constants.stream().map(v -> SelectionVectors.utf8(v.toString())).toArray(byte[][]::new);
                return Optional.of(new ValueIn(column.index(), column.type(), strings, null, false, new Expression(in)));
            }
            if (ColumnRange.readsDirectly(column.type())) {
                long[] longs = InListKernels.exactLongs(constants, Numeric.scale(column.type()));
                return Optional.of(new ValueIn(column.index(), column.type(), null, longs, false, new Expression(in)));
            }
            return Optional.empty();
        }

        private static Optional<Conjunct> ofStringComparison(PhysicalExpr expr) {
            if (!(expr instanceof BinaryExpr binary) || (binary.op() != BinaryOperator.EQ && binary.op() != BinaryOperator.NOT_EQ)) {
                return Optional.empty();
            }
            PhysicalExpr columnSide = binary.left() instanceof LiteralExpr ? binary.right() : binary.left();
            PhysicalExpr constantSide = binary.left() instanceof LiteralExpr ? binary.left() : binary.right();
            if (!(columnSide instanceof ColumnExpr column) || !(constantSide instanceof LiteralExpr literal) || literal.value() == null
                    || !(column.type() instanceof ArrowType.Utf8) || !(literal.type() instanceof ArrowType.Utf8)) {
                return Optional.empty();
            }
            byte[][] strings = {SelectionVectors.utf8(literal.value().toString())};
            return Optional.of(new ValueIn(column.index(), column.type(), strings, null, binary.op() == BinaryOperator.NOT_EQ,
                    new Expression(expr)));
        }

        @Override
        public int keep(VectorSchemaRoot batch, int[] positions, int count, boolean dense, BufferAllocator allocator) {
            FieldVector vector = batch.getVector(column);
            if (strings != null && vector instanceof VarCharVector varChars) {
                return SelectionVectors.keepStringIn(varChars, strings, negate, positions, count, dense);
            }
            int width = LongRange.directWidth(vector, type);
            if (longs != null && width != 0) {
                return SelectionVectors.keepLongIn(vector, width, longs, positions, count, dense);
            }
            return fallback.keep(batch, positions, count, dense, allocator);
        }
    }

    /** Any other conjunct, evaluated by its kernels over the whole batch or over the rows still selected. */
    private record Expression(PhysicalExpr expr, boolean safe, boolean engineOnly, BitSet columns) implements Conjunct {
        Expression(PhysicalExpr expr) {
            this(expr, SelectionKernels.isSafe(expr), engineOnly(expr), columnsOf(expr, new BitSet()));
        }

        Expression {
            requireNonNull(expr, "expr is null");
            requireNonNull(columns, "columns is null");
        }

        @Override
        public int keep(VectorSchemaRoot batch, int[] positions, int count, boolean dense, BufferAllocator allocator) {
            int rows = batch.getRowCount();
            boolean onSelected = !dense && (!safe || (engineOnly && count <= rows / 2));
            if (!onSelected) {
                try (BitVector bits = (BitVector) expr.evaluate(batch, allocator)) {
                    return SelectionVectors.keepTrue(bits, false, positions, count, dense);
                }
            }
            List<FieldVector> gathered = new ArrayList<>();
            try {
                List<FieldVector> vectors = new ArrayList<>(batch.getFieldVectors());
                for (int c = columns.nextSetBit(0); c >= 0; c = columns.nextSetBit(c + 1)) {
                    FieldVector copy = Filter.gather(vectors.get(c), positions, count, allocator);
                    gathered.add(copy);
                    vectors.set(c, copy);
                }
                // the columns the conjunct does not read stay the batch's own, longer vectors: it never reads them,
                // and only the gathered copies are closed below
                VectorSchemaRoot selected = new VectorSchemaRoot(batch.getSchema().getFields(), vectors, count);
                try (BitVector bits = (BitVector) expr.evaluate(selected, allocator)) {
                    return SelectionVectors.keepTrue(bits, true, positions, count, false);
                }
            } finally {
                gathered.forEach(FieldVector::close);
            }
        }

        private static BitSet columnsOf(PhysicalExpr expr, BitSet out) {
            if (expr instanceof ColumnExpr column) {
                out.set(column.index());
            }
            for (PhysicalExpr child : expr.children()) {
                columnsOf(child, out);
            }
            return out;
        }

        /** Whether every node is one of the engine's expressions, whose columns are all among its children. */
        private static boolean engineOnly(PhysicalExpr expr) {
            return expr.getClass().getPackageName().equals(ColumnExpr.class.getPackageName())
                    && expr.children().stream().allMatch(Expression::engineOnly);
        }
    }

    private static boolean isComparison(BinaryOperator op) {
        return switch (op) {
            case EQ, NOT_EQ, LT, LT_EQ, GT, GT_EQ -> true;
            default -> false;
        };
    }
}
