package dev.quiver.engine.compression;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.Zstd;
import dev.quiver.engine.batch.Batches;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jpountz.lz4.LZ4FrameInputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.message.IpcOption;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The LZ4-frame and ZSTD codecs: batches survive an IPC round trip, and the bytes are standard
 * frames, checked against independent readers and writers (lz4-java's frame streams, zstd-jni's
 * byte-array API).
 */
class CompressionCodecTest {
    private static final long PREFIX = CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH;
    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void noLeak() {
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    @Test
    void batchesSurviveRoundTripWithEachCodec() {
        Schema schema = new Schema(List.of(Field.nullable("id", new ArrowType.Int(64, true)), Field.nullable("name", ArrowType.Utf8.INSTANCE)));
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            rows.add(Arrays.asList(i % 11 == 0 ? null : (long) i * 31, i % 13 == 0 ? null : "row " + (i % 97)));
        }
        for (IpcCompression compression : IpcCompression.values()) {
            ByteArrayOutputStream ipc = new ByteArrayOutputStream();
            try (VectorSchemaRoot batch = Batches.fromRows(schema, rows, allocator);
                    ArrowStreamWriter writer = new ArrowStreamWriter(batch, null, Channels.newChannel(ipc), IpcOption.DEFAULT,
                            new QuiverCompressionFactory(), compression.newCodec().getCodecType())) {
                writer.start();
                writer.writeBatch();
                writer.end();
                if (compression != IpcCompression.NONE) {
                    assertThat((long) ipc.size()).as(compression.name()).isLessThan(Batches.sizeInBytes(batch) / 2);
                }
            } catch (IOException e) {
                throw new AssertionError(e);
            }
            // the reader finds the codec through QuiverCompressionFactory (ServiceLoader), as a Flight client does
            try (ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(ipc.toByteArray()), allocator,
                    CompressionCodec.Factory.INSTANCE)) {
                assertThat(reader.loadNextBatch()).isTrue();
                assertThat(Batches.toRows(reader.getVectorSchemaRoot())).as(compression.name()).isEqualTo(rows);
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        }
    }

    @Test
    void lz4FramesAreReadByAnIndependentReaderAndReadTheirs() throws IOException {
        for (byte[] data : samples()) {
            byte[] frame = compress(new Lz4FrameCodec(), data);
            try (InputStream in = new LZ4FrameInputStream(new ByteArrayInputStream(frame))) {
                assertThat(in.readAllBytes()).isEqualTo(data);
            }
            ByteArrayOutputStream theirs = new ByteArrayOutputStream();
            try (OutputStream out = new LZ4FrameOutputStream(theirs, LZ4FrameOutputStream.BLOCKSIZE.SIZE_64KB,
                    LZ4FrameOutputStream.FLG.Bits.BLOCK_CHECKSUM, LZ4FrameOutputStream.FLG.Bits.CONTENT_CHECKSUM,
                    LZ4FrameOutputStream.FLG.Bits.BLOCK_INDEPENDENCE)) {
                out.write(data);
            }
            assertThat(decompress(new Lz4FrameCodec(), theirs.toByteArray(), data.length)).isEqualTo(data);
        }
    }

    @Test
    void zstdFramesAreReadByAnIndependentReaderAndReadTheirs() {
        for (byte[] data : samples()) {
            byte[] frame = compress(new ZstdCodec(ZstdCodec.DEFAULT_LEVEL), data);
            assertThat(Zstd.decompress(frame, data.length)).isEqualTo(data);
            assertThat(decompress(new ZstdCodec(ZstdCodec.DEFAULT_LEVEL), Zstd.compress(data, 9), data.length)).isEqualTo(data);
        }
    }

    @Test
    void smallBuffersGetSmallOutputBuffers() {
        // IPC bodies are mostly small buffers (validity, offsets): each must not cost a whole 4 MiB LZ4 block
        try (BufferAllocator child = allocator.newChildAllocator("small", 0, Long.MAX_VALUE)) {
            byte[] data = new byte[2000];
            Arrays.fill(data, (byte) 7);
            for (CompressionCodec codec : List.of(new Lz4FrameCodec(), new ZstdCodec(ZstdCodec.DEFAULT_LEVEL))) {
                ArrowBuf raw = child.buffer(data.length);
                raw.setBytes(0, data);
                raw.writerIndex(data.length);
                codec.compress(child, raw).close();
            }
            assertThat(child.getPeakMemoryAllocation()).isLessThan(64 << 10);
        }
    }

    /** Repetitive text, incompressible noise, and more than one 4 MiB LZ4 block. */
    private static List<byte[]> samples() {
        Random random = new Random(42);
        // 4 MiB of noise (an LZ4 block stored as is) followed by text: the whole still compresses
        byte[] noise = new byte[6 << 20];
        random.nextBytes(noise);
        Arrays.fill(noise, 4 << 20, noise.length, (byte) 'x');
        byte[] large = new byte[9 << 20];
        for (int i = 0; i < large.length; i++) {
            large[i] = (byte) (i % 251 < 200 ? 'a' + i % 7 : random.nextInt());
        }
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            text.append("line ").append(i % 50).append('\n');
        }
        return List.of(text.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8), noise, large);
    }

    /** The frame the codec writes for {@code data} (without Arrow's 8-byte length prefix). */
    private byte[] compress(CompressionCodec codec, byte[] data) {
        try (ArrowBuf raw = allocator.buffer(data.length)) {
            raw.setBytes(0, data);
            raw.writerIndex(data.length);
            // compress() takes ownership of its input
            raw.getReferenceManager().retain();
            try (ArrowBuf compressed = codec.compress(allocator, raw)) {
                long length = compressed.getLong(0);
                assertThat(length).as("stored uncompressed instead").isEqualTo(data.length);
                byte[] frame = new byte[(int) (compressed.writerIndex() - PREFIX)];
                compressed.getBytes(PREFIX, frame);
                return frame;
            }
        }
    }

    /** Decompresses a frame written by someone else, wrapped the way Arrow IPC stores it. */
    private byte[] decompress(CompressionCodec codec, byte[] frame, int length) {
        ArrowBuf wrapped = allocator.buffer(PREFIX + frame.length);
        wrapped.setLong(0, length);
        wrapped.setBytes(PREFIX, frame);
        wrapped.writerIndex(PREFIX + frame.length);
        try (ArrowBuf out = codec.decompress(allocator, wrapped)) {
            byte[] bytes = new byte[length];
            out.getBytes(0, bytes);
            return bytes;
        }
    }
}
