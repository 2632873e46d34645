package dev.quiver.engine.source.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.GroupWriter;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.duckdb.DuckDBStruct;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files as Impala, Hive, old Spark and other parquet-java users write them, which DuckDB does not
 * write but reads: INT96 timestamps, decimals in BINARY and FIXED_LEN_BYTE_ARRAY, unsigned
 * integers, TIME, UUID, ENUM, raw bytes, the old two-level lists and MAP_KEY_VALUE maps, bare
 * repeated fields, and the deprecated Hadoop-framed LZ4 codec. parquet-java's record writer writes
 * them; Quiver reads each file and equals what DuckDB reads from it.
 */
class ParquetOtherWritersTest {
    private static final MessageType SCHEMA = MessageTypeParser.parseMessageType("""
            message spark_schema {
              required int64 id;
              optional int96 ts96;
              optional binary dec_bin (DECIMAL(20,3));
              optional fixed_len_byte_array(9) dec_fixed (DECIMAL(20,2));
              optional int32 u32 (INTEGER(32,false));
              optional int64 u64 (INTEGER(64,false));
              optional int32 t_ms (TIME(MILLIS,false));
              optional int64 t_us (TIME(MICROS,false));
              optional fixed_len_byte_array(16) id_uuid (UUID);
              optional binary mood (ENUM);
              optional fixed_len_byte_array(3) raw;
              optional group old_list (LIST) {
                repeated int32 array;
              }
              optional group kv (MAP) {
                repeated group map (MAP_KEY_VALUE) {
                  required binary key (STRING);
                  optional int64 value;
                }
              }
              repeated binary tags (STRING);
              optional group point {
                required double x;
                repeated int32 hits;
              }
            }
            """);

    @TempDir
    Path dir;

    @Test
    void readsWhatOtherWritersWriteAsDuckDbDoes() throws IOException, SQLException {
        for (CompressionCodecName codec : List.of(CompressionCodecName.UNCOMPRESSED, CompressionCodecName.LZ4, CompressionCodecName.SNAPPY)) {
            Path file = dir.resolve(codec.name().toLowerCase() + ".parquet");
            write(file, codec, 250);
            ParquetTable table = ParquetTable.open("t", file);
            assertThat(table.schema().getFields()).extracting(f -> f.getName() + " " + QuiverTypes.sqlName(f)).containsExactly(
                    "id BIGINT", "ts96 TIMESTAMP", "dec_bin DECIMAL(20,3)", "dec_fixed DECIMAL(20,2)", "u32 BIGINT", "u64 DECIMAL(20,0)",
                    "t_ms VARCHAR", "t_us VARCHAR", "id_uuid VARCHAR", "mood VARCHAR", "raw VARCHAR", "old_list INTEGER[]", "kv MAP(VARCHAR, BIGINT)",
                    "tags VARCHAR[]", "point STRUCT(x DOUBLE, hits INTEGER[])");
            assertThat(table.schema().getFields().get(13).isNullable()).as("a bare repeated field is never NULL").isFalse();
            List<List<Object>> actual;
            try (TestingContext testing = new TestingContext()) {
                actual = new ArrayList<>(testing.rows(table.scan(ScanRequest.all(2))));
            }
            actual.sort((a, b) -> Long.compare((Long) a.get(0), (Long) b.get(0)));
            assertThat(actual).as(codec.name()).isEqualTo(duckdb(file));
        }
    }

    private static void write(Path file, CompressionCodecName codec, int rows) throws IOException {
        ParquetProperties properties = ParquetProperties.builder().withDictionaryEncoding(true).build();
        ParquetFileWriter writer = new ParquetFileWriter(new LocalOutputFile(file), SCHEMA, ParquetFileWriter.Mode.CREATE, 1 << 20, 0, 64,
                Integer.MAX_VALUE, false);
        writer.start();
        SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
        for (int start = 0; start < rows; start += 100) {
            ColumnChunkPageWriteStore pages = new ColumnChunkPageWriteStore(ParquetCodecs.INSTANCE.getCompressor(codec), SCHEMA,
                    properties.getAllocator(), properties.getColumnIndexTruncateLength(), false);
            ColumnWriteStore columns = properties.newColumnWriteStore(SCHEMA, pages, pages);
            RecordConsumer consumer = new ColumnIOFactory().getColumnIO(SCHEMA).getRecordWriter(columns);
            GroupWriter records = new GroupWriter(consumer, SCHEMA);
            int end = Math.min(rows, start + 100);
            for (int i = start; i < end; i++) {
                records.write(row(groups, i));
                columns.endRecord();
            }
            // the record writer holds back the NULLs of missing groups until flushed
            consumer.flush();
            writer.startBlock(end - start);
            columns.flush();
            pages.flushToFileWriter(writer);
            writer.endBlock();
            pages.close();
        }
        writer.end(Map.of());
    }

    private static Group row(SimpleGroupFactory groups, int i) {
        Group row = groups.newGroup().append("id", (long) i);
        if (i % 7 != 0) {
            long micros = LocalDateTime.of(1999, 12, 31, 23, 0).toEpochSecond(ZoneOffset.UTC) * 1_000_000L + i * 3_600_000_123L;
            long days = Math.floorDiv(micros, 86_400_000_000L) + 2_440_588L;
            long nanos = Math.floorMod(micros, 86_400_000_000L) * 1000 + 456;
            row.append("ts96", Binary.fromConstantByteArray(ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN)
                    .putLong(nanos).putInt((int) days).array()));
        }
        row.append("dec_bin", Binary.fromConstantByteArray(BigInteger.valueOf(i * 12_345_678_901L - 500).toByteArray()));
        row.append("dec_fixed", Binary.fromConstantByteArray(fixed(BigInteger.valueOf(-i * 98_765_432_101L), 9)));
        row.append("u32", (int) (0xFFFFFF00L + i));
        row.append("u64", -1L - i);
        row.append("t_ms", i * 1_001);
        row.append("t_us", 3_600_000_000L * (i % 24) + i * 7L);
        row.append("id_uuid", Binary.fromConstantByteArray(ByteBuffer.allocate(16).putLong(0x0123456789ABCDEFL).putLong(i).array()));
        row.append("mood", i % 2 == 0 ? "happy" : "sad");
        row.append("raw", Binary.fromConstantByteArray(new byte[] {(byte) i, 'a', (byte) 0xFE}));
        if (i % 5 != 0) {
            Group list = row.addGroup("old_list");
            for (int k = 0; k < i % 4; k++) {
                list.append("array", i + k);
            }
        }
        if (i % 3 != 0) {
            Group map = row.addGroup("kv");
            map.addGroup("map").append("key", "a" + i).append("value", (long) i);
            map.addGroup("map").append("key", "b");
        }
        for (int k = 0; k < i % 3; k++) {
            row.append("tags", "t" + k);
        }
        if (i % 4 != 0) {
            Group point = row.addGroup("point").append("x", i * 0.5);
            for (int k = 0; k < i % 2; k++) {
                point.append("hits", k);
            }
        }
        return row;
    }

    /** {@code value} as {@code length} big-endian two's-complement bytes. */
    private static byte[] fixed(BigInteger value, int length) {
        byte[] bytes = value.toByteArray();
        byte[] out = new byte[length];
        Arrays.fill(out, value.signum() < 0 ? (byte) 0xFF : 0);
        System.arraycopy(bytes, 0, out, length - bytes.length, bytes.length);
        return out;
    }

    /** DuckDB's reading of {@code file}, as Quiver's types represent it (times, UUIDs and blobs as DuckDB prints them). */
    private static List<List<Object>> duckdb(Path file) throws SQLException {
        String sql = "SELECT id, ts96, dec_bin, dec_fixed, u32, u64, CAST(t_ms AS VARCHAR), CAST(t_us AS VARCHAR), CAST(id_uuid AS VARCHAR), "
                + "CAST(mood AS VARCHAR), CAST(raw AS VARCHAR), old_list, kv, tags, point FROM '" + file + "' ORDER BY id";
        List<List<Object>> rows = new ArrayList<>();
        try (Connection duckdb = DriverManager.getConnection("jdbc:duckdb:"); Statement statement = duckdb.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                List<Object> row = new ArrayList<>();
                for (int c = 1; c <= columns; c++) {
                    row.add(quiverValue(result.getObject(c)));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    private static Object quiverValue(Object value) throws SQLException {
        if (value instanceof Array array) {
            List<Object> list = new ArrayList<>();
            for (Object element : (Object[]) array.getArray()) {
                list.add(quiverValue(element));
            }
            return list;
        }
        if (value instanceof DuckDBStruct struct) {
            return quiverValue(struct.getMap());
        }
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> copy = new LinkedHashMap<>();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                copy.put(quiverValue(entry.getKey()), quiverValue(entry.getValue()));
            }
            return copy;
        }
        if (value instanceof java.sql.Timestamp timestamp) {
            LocalDateTime time = timestamp.toLocalDateTime();
            return time.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + time.getNano() / 1000;
        }
        if (value instanceof LocalDateTime time) {
            return time.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + time.getNano() / 1000;
        }
        if (value instanceof BigInteger big) {
            return new BigDecimal(big);
        }
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue() > Integer.MAX_VALUE ? ((Number) value).longValue() : value;
        }
        if (value instanceof UUID || value instanceof LocalTime) {
            return value.toString();
        }
        return value;
    }
}
