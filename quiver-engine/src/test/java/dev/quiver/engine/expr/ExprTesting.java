package dev.quiver.engine.expr;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.batch.VectorValues;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/** Evaluates expressions over small hand-made batches. */
final class ExprTesting {
    private ExprTesting() {}

    /** A schema of nullable columns c0, c1, ... of the given types. */
    static Schema schema(ArrowType... types) {
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < types.length; i++) {
            fields.add(QuiverTypes.field("c" + i, types[i], true));
        }
        return new Schema(fields);
    }

    /** The registry's function of that name. */
    static dev.quiver.engine.expr.function.ScalarFunction function(String name) {
        return dev.quiver.engine.expr.function.FunctionRegistry.builtins().require(name);
    }

    /** {@code input [NOT] LIKE pattern [ESCAPE escape]} through the registry's like function. */
    static PhysicalExpr like(PhysicalExpr input, String pattern, java.util.Optional<Character> escape, boolean negated) {
        List<PhysicalExpr> args = new java.util.ArrayList<>(List.of(input, new LiteralExpr(pattern, QuiverTypes.UTF8)));
        escape.ifPresent(e -> args.add(new LiteralExpr(String.valueOf(e), QuiverTypes.UTF8)));
        PhysicalExpr like = function("like").call(args, QuiverTypes.BOOLEAN);
        return negated ? new NotExpr(like) : like;
    }

    static ColumnExpr col(Schema schema, int index) {
        Field field = schema.getFields().get(index);
        return new ColumnExpr(index, field.getName(), field.getType(), true);
    }

    static LiteralExpr lit(Object value, ArrowType type) {
        return new LiteralExpr(value, type);
    }

    static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }

    /** The expression's value on each row; also checks the result vector's type and length. */
    static List<Object> eval(BufferAllocator allocator, PhysicalExpr expr, Schema schema, List<List<Object>> rows) {
        try (VectorSchemaRoot batch = Batches.fromRows(schema, rows, allocator);
                FieldVector result = expr.evaluate(batch, allocator)) {
            if (result.getValueCount() != rows.size()) {
                throw new AssertionError("result has " + result.getValueCount() + " values for " + rows.size() + " rows");
            }
            if (!(expr.type() instanceof ArrowType.Null) && !result.getField().getType().equals(expr.type())) {
                throw new AssertionError("result type " + result.getField().getType() + " but expression type " + expr.type());
            }
            List<Object> values = new ArrayList<>();
            for (int i = 0; i < rows.size(); i++) {
                values.add(VectorValues.get(result, i));
            }
            // evaluation must leave the batch intact
            Batches.toRows(batch);
            return values;
        }
    }

    /** The expression over one column whose values are {@code values}. */
    static List<Object> evalColumn(BufferAllocator allocator, ArrowType type, List<Object> values, java.util.function.Function<ColumnExpr, PhysicalExpr> expr) {
        Schema schema = schema(type);
        List<List<Object>> rows = values.stream().map(v -> row(v)).toList();
        return eval(allocator, expr.apply(col(schema, 0)), schema, rows);
    }
}
