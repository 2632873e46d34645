package dev.quiver.engine.source.parquet;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.source.storage.Location;
import dev.quiver.engine.source.storage.RandomReader;
import dev.quiver.engine.source.storage.Storage;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.ParquetFileRange;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A Parquet file of a {@link Storage}, read by positional reads ({@link RandomReader}): small reads
 * (the footer's length, page headers) go through a buffer, large ones (column chunks) straight
 * into the reader's buffers. When the storage reads ranges in parallel (an object store), the
 * stream offers parquet-java's vectored reads, so a row group's column chunks are fetched at once.
 */
record StorageInputFile(Storage storage, Location location, long size) implements InputFile {
    /** Reads shorter than this are served from (and fill) a buffer of this size. */
    private static final int BUFFER_SIZE = 8 << 10;

    StorageInputFile {
        requireNonNull(storage, "storage is null");
        requireNonNull(location, "location is null");
    }

    @Override
    public long getLength() {
        return size;
    }

    @Override
    public SeekableInputStream newStream() {
        return new Stream(storage.openRandom(location, size));
    }

    @Override
    public String toString() {
        return location.toString();
    }

    /** A seekable stream over positional reads, with a small read buffer. */
    private static final class Stream extends SeekableInputStream {
        private final RandomReader reader;
        private long position;
        private ByteBuffer buffer = ByteBuffer.allocate(0);
        /** The file offset of {@link #buffer}'s first byte. */
        private long bufferStart;

        Stream(RandomReader reader) {
            this.reader = reader;
        }

        @Override
        public long getPos() {
            return position;
        }

        @Override
        public void seek(long newPosition) throws IOException {
            if (newPosition < 0 || newPosition > reader.size()) {
                throw new EOFException("cannot seek to " + newPosition + " in a file of " + reader.size() + " bytes");
            }
            position = newPosition;
        }

        @Override
        public int read() throws IOException {
            if (position >= reader.size()) {
                return -1;
            }
            fill(1);
            return buffer.get((int) (position++ - bufferStart)) & 0xff;
        }

        @Override
        public int read(byte[] bytes, int offset, int length) throws IOException {
            if (length == 0) {
                return 0;
            }
            if (position >= reader.size()) {
                return -1;
            }
            int count = (int) Math.min(length, reader.size() - position);
            readFully(ByteBuffer.wrap(bytes, offset, count));
            return count;
        }

        @Override
        public void readFully(byte[] bytes) throws IOException {
            readFully(ByteBuffer.wrap(bytes));
        }

        @Override
        public void readFully(byte[] bytes, int offset, int length) throws IOException {
            readFully(ByteBuffer.wrap(bytes, offset, length));
        }

        @Override
        public int read(ByteBuffer into) throws IOException {
            if (position >= reader.size()) {
                return -1;
            }
            int count = (int) Math.min(into.remaining(), reader.size() - position);
            ByteBuffer slice = into.slice();
            slice.limit(count);
            readFully(slice);
            into.position(into.position() + count);
            return count;
        }

        @Override
        public void readFully(ByteBuffer into) throws IOException {
            int length = into.remaining();
            if (length == 0) {
                return;
            }
            if (position + length > reader.size()) {
                throw new EOFException("reading " + length + " bytes at " + position + " passes the end of a file of " + reader.size() + " bytes");
            }
            if (buffered(length)) {
                ByteBuffer view = buffer.duplicate();
                view.position((int) (position - bufferStart)).limit((int) (position - bufferStart) + length);
                into.put(view);
            } else if (length < BUFFER_SIZE) {
                fill(length);
                readFully(into);
                return;
            } else {
                reader.readFully(position, into);
            }
            position += length;
        }

        @Override
        public boolean readVectoredAvailable(ByteBufferAllocator allocator) {
            return reader.parallelRanges();
        }

        @Override
        public void readVectored(List<ParquetFileRange> ranges, ByteBufferAllocator allocator) throws IOException {
            List<RandomReader.Range> reads = new ArrayList<>(ranges.size());
            for (ParquetFileRange range : ranges) {
                reads.add(new RandomReader.Range(range.getOffset(), allocator.allocate(range.getLength())));
            }
            reader.readRanges(reads);
            for (int i = 0; i < ranges.size(); i++) {
                ByteBuffer data = reads.get(i).buffer();
                data.flip();
                ranges.get(i).setDataReadFuture(CompletableFuture.completedFuture(data));
            }
        }

        private boolean buffered(int length) {
            return position >= bufferStart && position + length <= bufferStart + buffer.limit();
        }

        /** Makes the buffer hold the next {@code length} bytes: it starts at the position (at most {@link #BUFFER_SIZE} bytes, up to the file's end). */
        private void fill(int length) throws IOException {
            if (buffered(length)) {
                return;
            }
            ByteBuffer fresh = ByteBuffer.allocate((int) Math.min(BUFFER_SIZE, reader.size() - position));
            reader.readFully(position, fresh);
            fresh.flip();
            buffer = fresh;
            bufferStart = position;
        }

        @Override
        public void close() throws IOException {
            reader.close();
        }
    }
}
