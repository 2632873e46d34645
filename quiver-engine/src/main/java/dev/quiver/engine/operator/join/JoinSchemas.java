package dev.quiver.engine.operator.join;

import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/** Output schemas of joins: which sides' columns appear, and which become nullable. */
public final class JoinSchemas {
    private JoinSchemas() {}

    /** Left fields then right fields, as a join filter sees them (for every join type). */
    public static Schema filterSchema(Schema left, Schema right) {
        List<Field> fields = new ArrayList<>(left.getFields());
        fields.addAll(right.getFields());
        return new Schema(fields);
    }

    public static Schema outputSchema(Schema left, Schema right, JoinType joinType) {
        List<Field> fields = new ArrayList<>();
        if (joinType.outputsLeft()) {
            boolean nullable = joinType == JoinType.RIGHT || joinType == JoinType.FULL;
            left.getFields().forEach(f -> fields.add(nullable ? nullable(f) : f));
        }
        if (joinType.outputsRight()) {
            boolean nullable = joinType == JoinType.LEFT || joinType == JoinType.FULL;
            right.getFields().forEach(f -> fields.add(nullable ? nullable(f) : f));
        }
        return new Schema(fields);
    }

    private static Field nullable(Field field) {
        return field.isNullable() ? field : QuiverTypes.field(field.getName(), field.getType(), true);
    }
}
