package dev.quiver.engine.operator.aggregate;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.operator.sort.IntSort;
import dev.quiver.engine.operator.sort.SortKey;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * STRING_AGG (LISTAGG, GROUP_CONCAT): a group's non-NULL VARCHAR values joined by a separator, in
 * the order of the ORDER BY keys (each ascending or descending, NULLs first or last); rows the
 * keys do not order, and every row without keys, keep the order they arrived in.
 */
final class StringAggAccumulator extends HolisticAccumulator {
    private final byte[] separator;
    private final List<SortKey> orderBy;
    private byte[] buffer = new byte[64];

    StringAggAccumulator(String separator, List<SortKey> orderBy) {
        super(inputTypes(orderBy));
        this.separator = separator.getBytes(StandardCharsets.UTF_8);
        this.orderBy = List.copyOf(orderBy);
    }

    private static List<ArrowType> inputTypes(List<SortKey> orderBy) {
        List<ArrowType> types = new ArrayList<>();
        types.add(ArrowType.Utf8.INSTANCE);
        orderBy.forEach(key -> types.add(key.expr().type()));
        return types;
    }

    @Override
    protected void evaluateGroup(int start, int end, FieldVector out, int index) {
        int[] order = rows.order();
        if (!orderBy.isEmpty()) {
            IntSort.sort(order, start, end, this::compareRows);
        }
        GatheredColumn.StringColumn values = (GatheredColumn.StringColumn) rows.column(0);
        long length = (long) separator.length * (end - start - 1);
        for (int i = start; i < end; i++) {
            length += values.length(order[i]);
        }
        if (length > Integer.MAX_VALUE - 16) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED,
                    "STRING_AGG result of " + length + " bytes exceeds 2 GiB");
        }
        if (buffer.length < length) {
            buffer = new byte[(int) Math.max(length, Math.min(Integer.MAX_VALUE - 16, 2L * buffer.length))];
        }
        int position = 0;
        byte[] arena = values.arena();
        for (int i = start; i < end; i++) {
            if (i > start) {
                System.arraycopy(separator, 0, buffer, position, separator.length);
                position += separator.length;
            }
            int row = order[i];
            System.arraycopy(arena, values.start(row), buffer, position, values.length(row));
            position += values.length(row);
        }
        Columns.setString(out, index, buffer, 0, position);
    }

    private int compareRows(int a, int b) {
        for (int k = 0; k < orderBy.size(); k++) {
            SortKey key = orderBy.get(k);
            int result = rows.column(k + 1).compare(a, b, key.nullsFirst());
            if (result != 0) {
                return key.ascending() || rows.column(k + 1).isNull(a) || rows.column(k + 1).isNull(b) ? result : -result;
            }
        }
        return 0;
    }

    @Override
    public long variableBytes() {
        return super.variableBytes() + buffer.length;
    }
}
