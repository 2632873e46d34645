package dev.quiver.engine.source.parquet;

import dev.quiver.engine.source.parquet.ParquetColumn.ValueKind;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * The Arrow field of a nested Parquet column: a group annotated LIST becomes a list, one annotated
 * MAP (or the old MAP_KEY_VALUE) a map, any other group a struct, and a repeated field outside a
 * LIST a list of its values. Lists follow the Parquet format's rules for the older two-level
 * layouts too: a repeated primitive, or a repeated group with several fields (or named
 * {@code array} or {@code <list>_tuple}), is itself the element.
 */
final class ParquetNestedTypes {
    private ParquetNestedTypes() {}

    static Field field(Type type) {
        if (type.isRepetition(Type.Repetition.REPEATED)) {
            // a bare repeated field is a list that is never NULL
            return QuiverTypes.list(type.getName(), required(type), false);
        }
        return nonRepeated(type, !type.isRepetition(Type.Repetition.REQUIRED));
    }

    /** {@code type}'s field, ignoring its repetition: NULL allowed as {@code nullable} says. */
    private static Field nonRepeated(Type type, boolean nullable) {
        if (type.isPrimitive()) {
            PrimitiveType primitive = type.asPrimitiveType();
            ValueKind kind = ParquetTypes.kind(primitive);
            return QuiverTypes.field(type.getName(), ParquetTypes.arrowType(primitive, kind), nullable);
        }
        GroupType group = type.asGroupType();
        LogicalTypeAnnotation logical = group.getLogicalTypeAnnotation();
        if (logical instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation && isList(group)) {
            return QuiverTypes.list(group.getName(), listElement(group), nullable);
        }
        if ((logical instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation
                || logical instanceof LogicalTypeAnnotation.MapKeyValueTypeAnnotation) && isMap(group)) {
            GroupType entries = group.getType(0).asGroupType();
            Field key = nonRepeated(entries.getType(0), false);
            Field value = entries.getFieldCount() > 1 ? field(entries.getType(1)) : QuiverTypes.field("value", QuiverTypes.NULL, true);
            return QuiverTypes.map(group.getName(), key, value, nullable);
        }
        List<Field> children = new ArrayList<>();
        for (Type child : group.getFields()) {
            children.add(field(child));
        }
        return QuiverTypes.struct(group.getName(), children, nullable);
    }

    static boolean isList(GroupType group) {
        return group.getFieldCount() == 1 && group.getType(0).isRepetition(Type.Repetition.REPEATED);
    }

    static boolean isMap(GroupType group) {
        return group.getFieldCount() == 1 && !group.getType(0).isPrimitive() && group.getType(0).isRepetition(Type.Repetition.REPEATED)
                && group.getType(0).asGroupType().getFieldCount() >= 1;
    }

    /** The element of a LIST group (three-level, or one of the older two-level layouts). */
    static Field listElement(GroupType list) {
        Type repeated = list.getType(0);
        if (isElementItself(list, repeated)) {
            return required(repeated);
        }
        return field(repeated.asGroupType().getType(0));
    }

    /** Whether the repeated field of a LIST is the element (the two-level layouts) rather than a wrapper of it. */
    static boolean isElementItself(GroupType list, Type repeated) {
        if (repeated.isPrimitive()) {
            return true;
        }
        GroupType group = repeated.asGroupType();
        return group.getFieldCount() > 1 || group.getName().equals("array") || group.getName().equals(list.getName() + "_tuple");
    }

    /** A repeated field's values as a non-NULL element. */
    private static Field required(Type repeated) {
        return nonRepeated(repeated, false);
    }
}
