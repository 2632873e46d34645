package dev.quiver.engine.source.parquet;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.math.BigDecimal;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.io.api.Binary;

/**
 * Writes a range of one Arrow column to a Parquet column writer: values straight from the Arrow
 * buffers, strings through one reused byte array (Parquet copies what it keeps).
 */
final class ColumnEncoder {
    private final Field field;
    private final int maxDefinition;
    private final int fixedBytes;
    private byte[] scratch = new byte[64];

    ColumnEncoder(Field field) {
        this.field = field;
        this.maxDefinition = field.isNullable() ? 1 : 0;
        this.fixedBytes = field.getType() instanceof ArrowType.Decimal decimal && decimal.getPrecision() > 18
                ? ParquetSchemas.decimalBytes(decimal.getPrecision())
                : 0;
    }

    /** Writes rows {@code [from, to)} of {@code vector}. */
    void write(FieldVector vector, int from, int to, ColumnWriter writer) {
        for (int row = from; row < to; row++) {
            if (vector.isNull(row)) {
                if (maxDefinition == 0) {
                    throw new QuiverException(ErrorCode.INVALID_ARGUMENT,
                            "column '" + field.getName() + "' is declared NOT NULL but row " + row + " of a batch is NULL");
                }
                writer.writeNull(0, 0);
            } else {
                writeValue(vector, row, writer);
            }
        }
    }

    private void writeValue(FieldVector vector, int row, ColumnWriter writer) {
        int def = maxDefinition;
        if (vector instanceof BigIntVector v) {
            writer.write(v.get(row), 0, def);
        } else if (vector instanceof IntVector v) {
            writer.write(v.get(row), 0, def);
        } else if (vector instanceof Float8Vector v) {
            writer.write(v.get(row), 0, def);
        } else if (vector instanceof DateDayVector v) {
            writer.write(v.get(row), 0, def);
        } else if (vector instanceof TimeStampVector v) {
            writer.write(v.get(row), 0, def);
        } else if (vector instanceof BitVector v) {
            writer.write(v.get(row) != 0, 0, def);
        } else if (vector instanceof VarCharVector v) {
            int start = v.getStartOffset(row);
            int length = v.getEndOffset(row) - start;
            if (scratch.length < length) {
                scratch = new byte[Math.max(length, scratch.length * 2)];
            }
            v.getDataBuffer().getBytes(start, scratch, 0, length);
            writer.write(Binary.fromReusedByteArray(scratch, 0, length), 0, def);
        } else if (vector instanceof DecimalVector v) {
            writeDecimal(v, row, writer, def);
        } else {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED,
                    "cannot write column '" + field.getName() + "' of vector type " + vector.getClass().getSimpleName() + " to Parquet");
        }
    }

    private void writeDecimal(DecimalVector vector, int row, ColumnWriter writer, int def) {
        int precision = vector.getPrecision();
        ArrowBuf data = vector.getDataBuffer();
        if (precision <= 9) {
            writer.write((int) data.getLong((long) row * DecimalVector.TYPE_WIDTH), 0, def);
        } else if (precision <= 18) {
            writer.write(data.getLong((long) row * DecimalVector.TYPE_WIDTH), 0, def);
        } else {
            BigDecimal value = vector.getObject(row);
            byte[] unscaled = value.unscaledValue().toByteArray();
            byte[] fixed = new byte[fixedBytes];
            byte sign = (byte) (unscaled[0] < 0 ? -1 : 0);
            int pad = fixedBytes - unscaled.length;
            java.util.Arrays.fill(fixed, 0, pad, sign);
            System.arraycopy(unscaled, 0, fixed, pad, unscaled.length);
            writer.write(Binary.fromConstantByteArray(fixed), 0, def);
        }
    }
}
