package dev.quiver.engine.source.parquet;

import dev.quiver.engine.source.parquet.ParquetColumn.ValueKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.EnumSet;
import java.util.Set;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.io.ParquetDecodingException;

/**
 * Decodes one column chunk page by page into Arrow vectors, many values at a time: PLAIN
 * fixed-width values of required columns are copied in bulk, dictionary ids and definition levels
 * are unpacked in runs ({@link HybridDecoder}), strings are copied from the page or dictionary
 * bytes without per-value objects. Handles flat columns of the kinds in {@link #supports} with
 * PLAIN or dictionary encoding in v1 or v2 pages; other chunks use parquet-java's column reader.
 */
final class PageColumnReader {
    private static final Set<Encoding> ENCODINGS = EnumSet.of(Encoding.PLAIN, Encoding.PLAIN_DICTIONARY, Encoding.RLE_DICTIONARY,
            Encoding.RLE, Encoding.BIT_PACKED);
    private static final Set<ValueKind> KINDS = EnumSet.of(ValueKind.INT32, ValueKind.DATE, ValueKind.INT64, ValueKind.DOUBLE,
            ValueKind.DECIMAL_INT32, ValueKind.DECIMAL_INT64, ValueKind.STRING, ValueKind.TIMESTAMP_MICROS);

    private final PageReader pages;
    private final ValueKind kind;
    private final int maxDefinition;
    private final int width;
    private long[] dictionaryLongs;
    private byte[] dictionaryBytes;
    private int[] dictionaryOffsets;
    private int pageLeft;
    private HybridDecoder levels;
    private HybridDecoder ids;
    private ByteBuffer plain;
    private int[] levelBuffer = new int[0];
    private int[] idBuffer = new int[0];

    PageColumnReader(PageReader pages, ParquetColumn column) {
        this.pages = pages;
        this.kind = column.kind();
        this.maxDefinition = column.descriptor().getMaxDefinitionLevel();
        this.width = switch (kind) {
            case INT32, DATE, DECIMAL_INT32 -> 4;
            default -> 8;
        };
        DictionaryPage dictionary = pages.readDictionaryPage();
        if (dictionary != null) {
            readDictionary(dictionary);
        }
    }

    static boolean supports(ParquetColumn column, Set<Encoding> chunkEncodings) {
        return KINDS.contains(column.kind()) && column.descriptor().getMaxRepetitionLevel() == 0
                && column.descriptor().getMaxDefinitionLevel() <= 1 && ENCODINGS.containsAll(chunkEncodings);
    }

    private void readDictionary(DictionaryPage page) {
        ByteBuffer bytes = buffer(page.getBytes());
        int size = page.getDictionarySize();
        if (kind == ValueKind.STRING) {
            dictionaryOffsets = new int[size + 1];
            // 8 spare bytes: values are copied out eight bytes at a time (readStrings)
            byte[] data = new byte[bytes.remaining() + 8];
            int offset = 0;
            for (int i = 0; i < size; i++) {
                int length = bytes.getInt();
                bytes.get(data, offset, length);
                offset += length;
                dictionaryOffsets[i + 1] = offset;
            }
            dictionaryBytes = data;
        } else {
            dictionaryLongs = new long[size];
            for (int i = 0; i < size; i++) {
                dictionaryLongs[i] = width == 4 ? bytes.getInt() : bytes.getLong();
            }
        }
    }

    private static ByteBuffer buffer(BytesInput input) {
        try {
            return input.toByteBuffer().slice().order(ByteOrder.LITTLE_ENDIAN);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void nextPage() {
        DataPage page = pages.readPage();
        if (page == null) {
            throw new ParquetDecodingException("column chunk ended before its row group's row count");
        }
        pageLeft = page.getValueCount();
        Encoding encoding;
        ByteBuffer values;
        if (page instanceof DataPageV1 v1) {
            ByteBuffer bytes = buffer(v1.getBytes());
            levels = null;
            if (maxDefinition > 0) {
                if (v1.getDlEncoding() != Encoding.RLE) {
                    throw new ParquetDecodingException("definition levels encoded as " + v1.getDlEncoding() + " are not supported");
                }
                int length = bytes.getInt();
                ByteBuffer levelBytes = bytes.slice().order(ByteOrder.LITTLE_ENDIAN);
                levelBytes.limit(length);
                levels = new HybridDecoder(levelBytes, 1);
                bytes.position(bytes.position() + length);
            }
            encoding = v1.getValueEncoding();
            values = bytes.slice().order(ByteOrder.LITTLE_ENDIAN);
        } else {
            DataPageV2 v2 = (DataPageV2) page;
            levels = maxDefinition > 0 ? new HybridDecoder(buffer(v2.getDefinitionLevels()), 1) : null;
            encoding = v2.getDataEncoding();
            values = buffer(v2.getData());
        }
        if (encoding == Encoding.PLAIN) {
            plain = values;
            ids = null;
        } else if (encoding == Encoding.PLAIN_DICTIONARY || encoding == Encoding.RLE_DICTIONARY) {
            if (dictionaryLongs == null && dictionaryBytes == null) {
                throw new ParquetDecodingException("dictionary-encoded page without a dictionary page");
            }
            int bitWidth = values.get() & 0xFF;
            ids = new HybridDecoder(values.slice().order(ByteOrder.LITTLE_ENDIAN), bitWidth);
            plain = null;
        } else {
            throw new ParquetDecodingException("values encoded as " + encoding + " are not supported");
        }
    }

    /** Decodes the next {@code count} values into {@code vector} (allocated here). */
    void read(FieldVector vector, int count) {
        if (kind == ValueKind.STRING) {
            readStrings((VarCharVector) vector, count);
        } else {
            readFixed((BaseFixedWidthVector) vector, count);
        }
        vector.setValueCount(count);
    }

    private void readFixed(BaseFixedWidthVector vector, int count) {
        vector.allocateNew(count);
        ArrowBuf data = vector.getDataBuffer();
        ArrowBuf validity = vector.getValidityBuffer();
        int outWidth = kind == ValueKind.DECIMAL_INT32 || kind == ValueKind.DECIMAL_INT64 ? 16 : width;
        int row = 0;
        while (row < count) {
            if (pageLeft == 0) {
                nextPage();
            }
            int n = Math.min(pageLeft, count - row);
            int[] defined = definitionLevels(n);
            int present = defined == null ? n : countPresent(defined, n);
            int[] dictionaryIds = ids == null ? null : ids(present);
            int next = 0;
            if (defined == null && dictionaryIds == null && outWidth == width) {
                // required PLAIN values have the Arrow layout already
                int position = plain.position();
                data.setBytes((long) row * width, plain, position, n * width);
                plain.position(position + n * width); // setBytes may or may not move the source's position
            } else if (defined == null) {
                writeRequired(data, row, n, outWidth, dictionaryIds);
            } else {
                for (int i = 0; i < n; i++) {
                    if (defined[i] == 0) {
                        continue;
                    }
                    long value = dictionaryIds != null ? dictionaryLongs[dictionaryIds[next++]] : (width == 4 ? plain.getInt() : plain.getLong());
                    long index = row + i;
                    if (outWidth == 16) {
                        data.setLong(index * 16, value);
                        data.setLong(index * 16 + 8, value < 0 ? -1L : 0L);
                    } else if (width == 4) {
                        data.setInt(index * 4, (int) value);
                    } else {
                        data.setLong(index * 8, value);
                    }
                }
            }
            setValidity(validity, row, n, defined);
            row += n;
            pageLeft -= n;
        }
    }

    /**
     * Rows {@code [row, row + n)} of a required column from dictionary ids or PLAIN values that
     * need widening (decimals become 16 bytes): the Arrow buffer is checked once and then written by
     * address, the PLAIN values read at absolute positions (ArrowBuf's per-call checks and the
     * ByteBuffer's position updates dominated this loop).
     */
    private void writeRequired(ArrowBuf data, int row, int n, int outWidth, int[] dictionaryIds) {
        long end = (long) (row + n) * outWidth;
        if (end > data.capacity()) {
            throw new IndexOutOfBoundsException((row + n) + " values of " + outWidth + " bytes in a buffer of " + data.capacity() + " bytes");
        }
        long address = data.memoryAddress() + (long) row * outWidth;
        if (dictionaryIds != null) {
            long[] dictionary = dictionaryLongs;
            for (int i = 0; i < n; i++) {
                putValue(address, i, outWidth, dictionary[dictionaryIds[i]]);
            }
            return;
        }
        ByteBuffer values = plain;
        int position = values.position();
        if (width == 4) {
            for (int i = 0; i < n; i++) {
                putValue(address, i, outWidth, values.getInt(position + i * 4));
            }
        } else {
            for (int i = 0; i < n; i++) {
                putValue(address, i, outWidth, values.getLong(position + i * 8));
            }
        }
        values.position(position + n * width);
    }

    private static void putValue(long address, int i, int outWidth, long value) {
        if (outWidth == 16) {
            MemoryUtil.putLong(address + (long) i * 16, value);
            MemoryUtil.putLong(address + (long) i * 16 + 8, value >> 63);
        } else if (outWidth == 4) {
            MemoryUtil.putInt(address + (long) i * 4, (int) value);
        } else {
            MemoryUtil.putLong(address + (long) i * 8, value);
        }
    }

    /**
     * Copies {@code length} bytes in 8-byte words (a call to {@code Unsafe.copyMemory} per short
     * string cost more in its argument checks than the copy): reads and writes up to 7 bytes past
     * the value, which the caller has made sure both arrays have.
     */
    private static void copyWords(byte[] source, int start, long target, int length) {
        for (int k = 0; k < length; k += 8) {
            MemoryUtil.putLong(target + k, MemoryUtil.getLong(source, start + k));
        }
    }

    private void readStrings(VarCharVector vector, int count) {
        vector.allocateNew(Math.max(1024, count * 16L), count);
        ArrowBuf validity = vector.getValidityBuffer();
        ArrowBuf offsets = vector.getOffsetBuffer();
        if ((long) (count + 1) * VarCharVector.OFFSET_WIDTH > offsets.capacity()) {
            throw new IndexOutOfBoundsException(count + " strings in an offset buffer of " + offsets.capacity() + " bytes");
        }
        // offsets and dictionary values are written by address: the buffers are checked here and on growth
        long offsetAddress = offsets.memoryAddress();
        ArrowBuf data = vector.getDataBuffer();
        long capacity = data.capacity();
        long dataAddress = data.memoryAddress();
        int end = 0;
        int row = 0;
        while (row < count) {
            if (pageLeft == 0) {
                nextPage();
            }
            int n = Math.min(pageLeft, count - row);
            int[] defined = definitionLevels(n);
            int present = defined == null ? n : countPresent(defined, n);
            int[] dictionaryIds = ids == null ? null : ids(present);
            byte[] plainArray = plain != null && plain.hasArray() ? plain.array() : null;
            int plainOffset = plainArray == null ? 0 : plain.arrayOffset();
            int next = 0;
            for (int i = 0; i < n; i++) {
                if (defined == null || defined[i] != 0) {
                    int start;
                    int length;
                    if (dictionaryIds != null) {
                        int id = dictionaryIds[next++];
                        start = dictionaryOffsets[id];
                        length = dictionaryOffsets[id + 1] - start;
                    } else {
                        length = plain.getInt();
                        start = plain.position();
                        if (length < 0) {
                            throw new ParquetDecodingException("a string value has a negative length: " + length);
                        }
                        plain.position(start + length);
                    }
                    // 8 spare bytes: values are copied eight bytes at a time
                    if (capacity < end + length + 8L) {
                        while (vector.getDataBuffer().capacity() < end + length + 8L) {
                            vector.reallocDataBuffer();
                        }
                        data = vector.getDataBuffer();
                        capacity = data.capacity();
                        dataAddress = data.memoryAddress();
                    }
                    if (dictionaryIds != null) {
                        // dictionaryOffsets were built from this array's own bounds, which has 8 spare bytes
                        copyWords(dictionaryBytes, start, dataAddress + end, length);
                    } else if (plainArray != null && plainOffset + start + length + 8L <= plainArray.length) {
                        copyWords(plainArray, plainOffset + start, dataAddress + end, length);
                    } else {
                        data.setBytes(end, plain, start, length);
                    }
                    end += length;
                }
                MemoryUtil.putInt(offsetAddress + (long) (row + i + 1) * VarCharVector.OFFSET_WIDTH, end);
            }
            setValidity(validity, row, n, defined);
            row += n;
            pageLeft -= n;
        }
        vector.setLastSet(count - 1);
    }

    private int[] definitionLevels(int n) {
        if (levels == null) {
            return null;
        }
        if (levelBuffer.length < n) {
            levelBuffer = new int[Math.max(n, 1024)];
        }
        levels.read(levelBuffer, n);
        return levelBuffer;
    }

    private int[] ids(int n) {
        if (idBuffer.length < n) {
            idBuffer = new int[Math.max(n, 1024)];
        }
        ids.read(idBuffer, n);
        return idBuffer;
    }

    /** Sets bits {@code [from, from + n)}: single bits up to a byte boundary, then whole bytes. */
    private static void setAll(ArrowBuf validity, int from, int n) {
        int bit = from;
        int end = from + n;
        while (bit < end && (bit & 7) != 0) {
            BitVectorHelper.setBit(validity, bit++);
        }
        int wholeBytes = (end - bit) >>> 3;
        if (wholeBytes > 0) {
            validity.setOne(bit >>> 3, wholeBytes);
            bit += wholeBytes << 3;
        }
        while (bit < end) {
            BitVectorHelper.setBit(validity, bit++);
        }
    }

    private static int countPresent(int[] defined, int n) {
        int present = 0;
        for (int i = 0; i < n; i++) {
            present += defined[i];
        }
        return present;
    }

    private static void setValidity(ArrowBuf validity, int row, int n, int[] defined) {
        if (defined == null) {
            setAll(validity, row, n);
            return;
        }
        for (int i = 0; i < n; i++) {
            if (defined == null || defined[i] != 0) {
                BitVectorHelper.setBit(validity, row + i);
            }
        }
    }
}
