package dev.quiver.engine.compression;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4FrameInputStream;
import net.jpountz.lz4.LZ4SafeDecompressor;
import net.jpountz.xxhash.XXHash32;
import net.jpountz.xxhash.XXHashFactory;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.compression.AbstractCompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.compression.CompressionUtil.CodecType;

/**
 * Arrow IPC body compression with standard LZ4 frames, on lz4-java working directly on the
 * buffers' memory. Arrow's own LZ4 codec (commons-compress) compresses at about 0.1 MiB/s, which
 * makes it unusable for an exchange (docs/distributed.md).
 *
 * <p>Frames written: independent blocks of at most 4 MiB, no block or content checksums, no content
 * size. Reading takes that shape directly and hands any other valid LZ4 frame (linked blocks,
 * checksums, as other Arrow implementations may write) to lz4-java's frame reader.
 *
 * <p>Stateless and thread-safe.
 */
public final class Lz4FrameCodec extends AbstractCompressionCodec {
    static final int MAGIC = 0x184D2204;
    private static final int BLOCK_SIZE = 4 << 20;
    /** Version 01, independent blocks, no checksums, no content size, no dictionary. */
    private static final byte FLG = 0x60;
    /** Block maximum size 4 MiB. */
    private static final byte BD = 0x70;
    private static final int HEADER_BYTES = 7;
    private static final int UNCOMPRESSED_BLOCK = 0x80000000;

    private static final LZ4Factory LZ4 = LZ4Factory.fastestInstance();
    private static final XXHash32 XXHASH = XXHashFactory.fastestInstance().hash32();
    private static final byte HEADER_CHECKSUM = (byte) ((XXHASH.hash(new byte[] {FLG, BD}, 0, 2, 0) >> 8) & 0xFF);

    // lz4-java's compressors are stateless and thread-safe: every codec shares the factory's
    private static final LZ4Compressor COMPRESSOR = LZ4.fastCompressor();
    private static final LZ4SafeDecompressor DECOMPRESSOR = LZ4.safeDecompressor();

    @Override
    protected ArrowBuf doCompress(BufferAllocator allocator, ArrowBuf uncompressed) {
        long length = uncompressed.writerIndex();
        long fullBlocks = length / BLOCK_SIZE;
        int lastBlock = (int) (length % BLOCK_SIZE);
        // sized for this buffer, not for whole blocks: most IPC buffers are far smaller than a block
        long bound = CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH + HEADER_BYTES + 4
                + fullBlocks * (4 + (long) COMPRESSOR.maxCompressedLength(BLOCK_SIZE))
                + (lastBlock == 0 ? 0 : 4 + COMPRESSOR.maxCompressedLength(lastBlock));
        ArrowBuf out = allocator.buffer(bound);
        try {
            ByteBuffer dst = out.nioBuffer(0, (int) bound).order(ByteOrder.LITTLE_ENDIAN);
            int pos = (int) CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH;
            dst.putInt(pos, MAGIC);
            dst.put(pos + 4, FLG);
            dst.put(pos + 5, BD);
            dst.put(pos + 6, HEADER_CHECKSUM);
            pos += HEADER_BYTES;
            ByteBuffer src = length == 0 ? ByteBuffer.allocate(0) : uncompressed.nioBuffer(0, (int) length);
            for (int offset = 0; offset < length; offset += BLOCK_SIZE) {
                int blockLength = (int) Math.min(BLOCK_SIZE, length - offset);
                int written = COMPRESSOR.compress(src, offset, blockLength, dst, pos + 4, dst.capacity() - pos - 4);
                if (written >= blockLength) {
                    // incompressible: store the block as is, as the frame format allows
                    dst.putInt(pos, blockLength | UNCOMPRESSED_BLOCK);
                    dst.put(pos + 4, src, offset, blockLength);
                    written = blockLength;
                } else {
                    dst.putInt(pos, written);
                }
                pos += 4 + written;
            }
            dst.putInt(pos, 0);
            pos += 4;
            out.writerIndex(pos);
            return out;
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }

    @Override
    protected ArrowBuf doDecompress(BufferAllocator allocator, ArrowBuf compressed) {
        long length = readUncompressedLength(compressed);
        int frameOffset = (int) CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH;
        int frameLength = (int) (compressed.writerIndex() - frameOffset);
        ArrowBuf out = allocator.buffer(length);
        try {
            ByteBuffer src = compressed.nioBuffer(frameOffset, frameLength).order(ByteOrder.LITTLE_ENDIAN);
            ByteBuffer dst = length == 0 ? ByteBuffer.allocate(0) : out.nioBuffer(0, (int) length);
            long written = isOwnShape(src) ? readOwnFrame(src, dst) : readAnyFrame(src, dst);
            if (written != length) {
                throw new IllegalStateException("LZ4 frame holds " + written + " bytes, the IPC buffer says " + length);
            }
            out.writerIndex(length);
            return out;
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }

    @Override
    public CodecType getCodecType() {
        return CodecType.LZ4_FRAME;
    }

    private static boolean isOwnShape(ByteBuffer src) {
        return src.capacity() >= HEADER_BYTES && src.getInt(0) == MAGIC && src.get(4) == FLG;
    }

    private static long readOwnFrame(ByteBuffer src, ByteBuffer dst) {
        int pos = HEADER_BYTES;
        int out = 0;
        while (true) {
            int header = src.getInt(pos);
            pos += 4;
            if (header == 0) {
                return out;
            }
            int blockLength = header & ~UNCOMPRESSED_BLOCK;
            if ((header & UNCOMPRESSED_BLOCK) != 0) {
                dst.put(out, src, pos, blockLength);
                out += blockLength;
            } else {
                out += DECOMPRESSOR.decompress(src, pos, blockLength, dst, out, dst.capacity() - out);
            }
            pos += blockLength;
        }
    }

    private static long readAnyFrame(ByteBuffer src, ByteBuffer dst) {
        byte[] frame = new byte[src.capacity()];
        src.get(0, frame);
        try (InputStream in = new LZ4FrameInputStream(new ByteArrayInputStream(frame))) {
            byte[] chunk = new byte[64 << 10];
            int out = 0;
            int read;
            while ((read = in.read(chunk)) > 0) {
                dst.put(out, chunk, 0, read);
                out += read;
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("not a valid LZ4 frame: " + e.getMessage(), e);
        }
    }
}
