package dev.quiver.engine.batch;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;

/**
 * Reads and writes single values of vectors as the Java values of
 * {@link dev.quiver.engine.types.QuiverTypes}. For results, literals and tests — not for hot loops,
 * which work on the vectors' own accessors.
 */
public final class VectorValues {
    private VectorValues() {}

    /** The value at {@code index}, or null. */
    public static Object get(ValueVector vector, int index) {
        if (vector.isNull(index)) {
            return null;
        }
        if (vector instanceof BitVector v) {
            return v.get(index) != 0;
        }
        if (vector instanceof IntVector v) {
            return v.get(index);
        }
        if (vector instanceof BigIntVector v) {
            return v.get(index);
        }
        if (vector instanceof Float8Vector v) {
            return v.get(index);
        }
        if (vector instanceof DecimalVector v) {
            return v.getObject(index);
        }
        if (vector instanceof VarCharVector v) {
            return new String(v.get(index), StandardCharsets.UTF_8);
        }
        if (vector instanceof DateDayVector v) {
            return v.get(index);
        }
        if (vector instanceof TimeStampVector v) {
            return v.get(index);
        }
        if (vector instanceof ListVector list) {
            return nested(list, index);
        }
        if (vector instanceof StructVector struct) {
            Map<String, Object> fields = new LinkedHashMap<>();
            for (String name : struct.getChildFieldNames()) {
                fields.put(name, get(struct.getChild(name), index));
            }
            return fields;
        }
        Object value = vector.getObject(index);
        return value instanceof org.apache.arrow.vector.util.Text text ? text.toString() : value;
    }

    /** A list as a {@code List}, a map as a {@code Map} in entry order; their elements as {@link #get} gives them. */
    private static Object nested(ListVector list, int index) {
        int start = list.getOffsetBuffer().getInt((long) index * ListVector.OFFSET_WIDTH);
        int end = list.getOffsetBuffer().getInt((long) (index + 1) * ListVector.OFFSET_WIDTH);
        FieldVector data = list.getDataVector();
        if (list instanceof MapVector) {
            StructVector entries = (StructVector) data;
            ValueVector keys = entries.getChildByOrdinal(0);
            ValueVector values = entries.getChildByOrdinal(1);
            Map<Object, Object> map = new LinkedHashMap<>();
            for (int i = start; i < end; i++) {
                map.put(get(keys, i), get(values, i));
            }
            return map;
        }
        List<Object> elements = new ArrayList<>(end - start);
        for (int i = start; i < end; i++) {
            elements.add(get(data, i));
        }
        return elements;
    }

    /** Sets the value at {@code index} (null for SQL NULL), growing the vector if needed. */
    public static void set(FieldVector vector, int index, Object value) {
        if (value == null) {
            setNull(vector, index);
            return;
        }
        if (vector instanceof BitVector v) {
            v.setSafe(index, ((Boolean) value) ? 1 : 0);
        } else if (vector instanceof IntVector v) {
            v.setSafe(index, ((Number) value).intValue());
        } else if (vector instanceof BigIntVector v) {
            v.setSafe(index, ((Number) value).longValue());
        } else if (vector instanceof Float8Vector v) {
            v.setSafe(index, ((Number) value).doubleValue());
        } else if (vector instanceof DecimalVector v) {
            BigDecimal decimal = value instanceof BigDecimal d ? d : new BigDecimal(value.toString());
            v.setSafe(index, decimal.setScale(v.getScale(), java.math.RoundingMode.HALF_UP));
        } else if (vector instanceof VarCharVector v) {
            v.setSafe(index, value.toString().getBytes(StandardCharsets.UTF_8));
        } else if (vector instanceof DateDayVector v) {
            int days = value instanceof java.time.LocalDate date ? (int) date.toEpochDay() : ((Number) value).intValue();
            v.setSafe(index, days);
        } else if (vector instanceof TimeStampVector v) {
            v.setSafe(index, ((Number) value).longValue());
        } else {
            throw new IllegalArgumentException("unsupported vector type " + vector.getField());
        }
    }

    /** Marks {@code index} null, growing the vector if needed. */
    public static void setNull(FieldVector vector, int index) {
        if (vector instanceof org.apache.arrow.vector.BaseFixedWidthVector v) {
            while (index >= v.getValueCapacity()) {
                v.reAlloc();
            }
            v.setNull(index);
        } else if (vector instanceof org.apache.arrow.vector.BaseVariableWidthVector v) {
            while (index >= v.getValueCapacity()) {
                v.reallocValidityAndOffsetBuffers();
            }
            v.setNull(index);
        } else if (vector instanceof ListVector v) {
            // a list or a map (outer-join padding, UNNEST past a list's end): setNull grows the vector
            v.setNull(index);
        } else if (vector instanceof StructVector v) {
            v.setNull(index);
        } else if (!(vector instanceof NullVector)) {
            // a NullVector (the type of an untyped NULL literal) holds nothing but NULLs: nothing to set
            throw new IllegalArgumentException("unsupported vector type " + vector.getField());
        }
    }
}
