package dev.quiver.engine.source.csv;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.files.BatchFileWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Writes batches to one CSV file with a header line, in the form {@link CsvTable} reads back
 * (other delimiters, quotes, NULL texts and no header with {@link CsvWriteOptions}):
 * NULL as an empty field, an empty string as {@code ""}, fields holding a comma, quote or line
 * break quoted (quotes doubled), decimals in plain notation with all their scale digits, dates
 * {@code YYYY-MM-DD}, timestamps {@code YYYY-MM-DD HH:MM:SS[.ffffff]}, booleans
 * {@code true}/{@code false}. Values are formatted from the vectors' buffers without boxing.
 */
public final class CsvBatchWriter implements BatchFileWriter {
    private static final int FLUSH_BYTES = 1 << 20;

    private final Path path;
    private final Schema schema;
    private final CsvColumnKind[] kinds;
    private final byte delimiter;
    private final byte quote;
    private final byte[] nullText;
    private final OutputStream output;
    private byte[] buffer = new byte[FLUSH_BYTES + 4096];
    private int size;
    private byte[] scratch = new byte[256];
    private long rowCount;
    private boolean closed;

    private CsvBatchWriter(Path path, Schema schema, CsvColumnKind[] kinds, CsvWriteOptions options, OutputStream output) {
        this.path = path;
        this.schema = schema;
        this.kinds = kinds;
        this.delimiter = (byte) options.delimiter();
        this.quote = (byte) options.quote();
        this.nullText = options.nullString().getBytes(StandardCharsets.UTF_8);
        this.output = output;
    }

    /** Creates or truncates {@code path} and writes the header, with the {@link CsvWriteOptions#defaults()}. */
    public static CsvBatchWriter create(Path path, Schema schema) {
        return create(path, schema, CsvWriteOptions.defaults());
    }

    /** Creates or truncates {@code path} and writes the header if {@code options} asks for one. */
    public static CsvBatchWriter create(Path path, Schema schema, CsvWriteOptions options) {
        requireNonNull(path, "path is null");
        requireNonNull(schema, "schema is null");
        requireNonNull(options, "options is null");
        List<Field> fields = schema.getFields();
        CsvColumnKind[] kinds = new CsvColumnKind[fields.size()];
        for (int c = 0; c < kinds.length; c++) {
            kinds[c] = CsvColumnKind.of(fields.get(c), path.toString());
        }
        OutputStream output;
        try {
            output = Files.newOutputStream(path);
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot write CSV file " + path + ": " + e.getMessage(), e);
        }
        CsvBatchWriter writer = new CsvBatchWriter(path, schema, kinds, options, output);
        if (options.header()) {
            for (int c = 0; c < fields.size(); c++) {
                if (c > 0) {
                    writer.put(writer.delimiter);
                }
                byte[] name = fields.get(c).getName().getBytes(StandardCharsets.UTF_8);
                writer.putText(name, 0, name.length);
            }
            writer.put((byte) '\n');
        }
        return writer;
    }

    public Path path() {
        return path;
    }

    public long rowCount() {
        return rowCount;
    }

    /** Appends the batch's rows; the caller keeps ownership of the batch. */
    public void write(VectorSchemaRoot batch) {
        requireNonNull(batch, "batch is null");
        if (!matches(batch)) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT,
                    "batch with columns " + batch.getSchema() + " does not match CSV file " + path + " with " + schema);
        }
        List<FieldVector> vectors = batch.getFieldVectors();
        int rows = batch.getRowCount();
        for (int row = 0; row < rows; row++) {
            for (int c = 0; c < kinds.length; c++) {
                if (c > 0) {
                    put(delimiter);
                }
                FieldVector vector = vectors.get(c);
                if (vector.isNull(row)) {
                    putBytes(nullText);
                } else {
                    writeValue(kinds[c], vector, row);
                }
            }
            put((byte) '\n');
            if (size >= FLUSH_BYTES) {
                flush();
            }
        }
        rowCount += rows;
    }

    private boolean matches(VectorSchemaRoot batch) {
        List<FieldVector> vectors = batch.getFieldVectors();
        if (vectors.size() != kinds.length) {
            return false;
        }
        for (int c = 0; c < kinds.length; c++) {
            if (!vectors.get(c).getField().getType().equals(schema.getFields().get(c).getType())) {
                return false;
            }
        }
        return true;
    }

    private void writeValue(CsvColumnKind kind, FieldVector vector, int row) {
        switch (kind) {
            case BIGINT -> putLong(((BigIntVector) vector).get(row));
            case INT -> putLong(((IntVector) vector).get(row));
            case DOUBLE -> putAscii(Double.toString(((Float8Vector) vector).get(row)));
            case DECIMAL -> writeDecimal((DecimalVector) vector, row);
            case DATE -> putAscii(LocalDate.ofEpochDay(((DateDayVector) vector).get(row)).toString());
            case TIMESTAMP -> writeTimestamp(((TimeStampMicroVector) vector).get(row));
            case BOOLEAN -> putAscii(((BitVector) vector).get(row) == 1 ? "true" : "false");
            case VARCHAR -> writeString((VarCharVector) vector, row);
            default -> throw new IllegalStateException("unexpected kind " + kind);
        }
    }

    private void writeDecimal(DecimalVector vector, int row) {
        int scale = ((ArrowType.Decimal) vector.getField().getType()).getScale();
        ArrowBuf data = vector.getDataBuffer();
        long offset = (long) row * DecimalVector.TYPE_WIDTH;
        long low = data.getLong(offset);
        long high = data.getLong(offset + 8);
        if (high == (low >> 63) && low != Long.MIN_VALUE) {
            putScaled(low, scale);
        } else {
            putAscii(vector.getObject(row).toPlainString());
        }
    }

    /** {@code unscaled / 10^scale} in plain notation with exactly {@code scale} fraction digits. */
    private void putScaled(long unscaled, int scale) {
        if (scale == 0) {
            putLong(unscaled);
            return;
        }
        if (scale > 18) {
            putAscii(BigDecimal.valueOf(unscaled, scale).toPlainString());
            return;
        }
        if (unscaled < 0) {
            put((byte) '-');
            unscaled = -unscaled;
        }
        String digits = Long.toString(unscaled);
        int integerDigits = digits.length() - scale;
        if (integerDigits <= 0) {
            put((byte) '0');
            put((byte) '.');
            for (int i = integerDigits; i < 0; i++) {
                put((byte) '0');
            }
            putAscii(digits);
        } else {
            putAscii(digits.substring(0, integerDigits));
            put((byte) '.');
            putAscii(digits.substring(integerDigits));
        }
    }

    private void writeTimestamp(long micros) {
        LocalDateTime time = LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000L),
                (int) Math.floorMod(micros, 1_000_000L) * 1000, ZoneOffset.UTC);
        String text = time.toLocalDate() + " " + time.toLocalTime();
        if (time.getSecond() == 0 && time.getNano() == 0) {
            text += ":00"; // LocalTime prints HH:MM when the seconds are zero
        }
        putAscii(text);
    }

    private void writeString(VarCharVector vector, int row) {
        ArrowBuf offsets = vector.getOffsetBuffer();
        int start = offsets.getInt((long) row * VarCharVector.OFFSET_WIDTH);
        int end = offsets.getInt((long) (row + 1) * VarCharVector.OFFSET_WIDTH);
        int length = end - start;
        if (scratch.length < length) {
            scratch = new byte[Math.max(length, scratch.length * 2)];
        }
        vector.getDataBuffer().getBytes(start, scratch, 0, length);
        putText(scratch, 0, length);
    }

    /** Quotes text that reads as NULL (empty, or the NULL text) or holds the delimiter, a quote or a line break. */
    private void putText(byte[] bytes, int start, int length) {
        boolean quoted = length == 0 || Arrays.equals(bytes, start, start + length, nullText, 0, nullText.length);
        for (int i = start; i < start + length && !quoted; i++) {
            byte b = bytes[i];
            quoted = b == delimiter || b == quote || b == '\n' || b == '\r';
        }
        ensure(length * 2 + 2);
        if (!quoted) {
            System.arraycopy(bytes, start, buffer, size, length);
            size += length;
            return;
        }
        buffer[size++] = quote;
        for (int i = start; i < start + length; i++) {
            if (bytes[i] == quote) {
                buffer[size++] = quote;
            }
            buffer[size++] = bytes[i];
        }
        buffer[size++] = quote;
    }

    private void putBytes(byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buffer, size, bytes.length);
        size += bytes.length;
    }

    private void putLong(long value) {
        putAscii(Long.toString(value));
    }

    private void putAscii(String text) {
        int length = text.length();
        ensure(length);
        for (int i = 0; i < length; i++) {
            buffer[size++] = (byte) text.charAt(i);
        }
    }

    private void put(byte b) {
        ensure(1);
        buffer[size++] = b;
    }

    private void ensure(int more) {
        if (size + more > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, size + more));
        }
    }

    private void flush() {
        try {
            output.write(buffer, 0, size);
            size = 0;
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot write CSV file " + path + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            flush();
        } finally {
            try {
                output.close();
            } catch (IOException e) {
                throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot finish CSV file " + path + ": " + e.getMessage(), e);
            }
        }
    }
}
