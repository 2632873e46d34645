package dev.quiver.engine.source.storage.s3;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.source.storage.Location;
import dev.quiver.engine.source.storage.RandomReader;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * Positional reads of one object by ranged GETs. The first read that falls in the object's last
 * {@value #TAIL_BYTES} bytes fetches all of them once (a Parquet footer and its length, in one
 * request); any other read is a GET of exactly its range. {@link #readRanges} fetches up to
 * {@value #PARALLEL_READS} ranges at a time on the executor (a row group's column chunks).
 */
final class S3RandomReader implements RandomReader {
    static final int TAIL_BYTES = 64 << 10;
    static final int PARALLEL_READS = 8;

    private final S3Storage storage;
    private final S3Path path;
    private final Location location;
    private final long size;
    private final Optional<Executor> executor;
    private S3Client client;
    private ByteBuffer tail;
    private long tailStart;

    S3RandomReader(S3Storage storage, S3Path path, Location location, long size, Optional<Executor> executor) {
        this.storage = requireNonNull(storage, "storage is null");
        this.path = requireNonNull(path, "path is null");
        this.location = requireNonNull(location, "location is null");
        this.size = size;
        this.executor = requireNonNull(executor, "executor is null");
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public void readFully(long position, ByteBuffer buffer) throws IOException {
        int length = buffer.remaining();
        if (length == 0) {
            return;
        }
        if (position + length > size) {
            throw new EOFException("reading " + length + " bytes at " + position + " passes the end of " + location + " (" + size + " bytes)");
        }
        long tailFrom = Math.max(0, size - TAIL_BYTES);
        if (position >= tailFrom) {
            if (tail == null) {
                ByteBuffer fetched = ByteBuffer.allocate((int) (size - tailFrom));
                get(client(), tailFrom, fetched);
                fetched.flip();
                tail = fetched;
                tailStart = tailFrom;
            }
            ByteBuffer view = tail.duplicate();
            view.position((int) (position - tailStart)).limit((int) (position - tailStart) + length);
            buffer.put(view);
            return;
        }
        get(client(), position, buffer);
    }

    @Override
    public void readRanges(List<Range> ranges) throws IOException {
        if (executor.isEmpty() || ranges.size() < 2) {
            RandomReader.super.readRanges(ranges);
            return;
        }
        S3Client shared = client();
        List<CompletableFuture<Void>> reads = new ArrayList<>(ranges.size());
        // at most PARALLEL_READS at a time: each one waits for the one PARALLEL_READS before it
        for (int i = 0; i < ranges.size(); i++) {
            Range range = ranges.get(i);
            CompletableFuture<Void> before = i < PARALLEL_READS ? CompletableFuture.completedFuture(null) : reads.get(i - PARALLEL_READS);
            reads.add(before.thenRunAsync(() -> {
                try {
                    get(shared, range.position(), range.buffer());
                } catch (IOException e) {
                    throw new CompletionException(e);
                }
            }, executor.get()));
        }
        try {
            CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IOException(cause);
        }
    }

    @Override
    public boolean parallelRanges() {
        return executor.isPresent();
    }

    /** Fills {@code buffer} with the object's bytes from {@code position} by one ranged GET. */
    private void get(S3Client with, long position, ByteBuffer buffer) throws IOException {
        int length = buffer.remaining();
        String range = "bytes=" + position + "-" + (position + length - 1);
        try (ResponseInputStream<GetObjectResponse> in = with.getObject(request -> request.bucket(path.bucket()).key(path.key()).range(range))) {
            read(in, buffer, position);
        } catch (SdkException e) {
            throw S3Errors.of(e, "read", location, storage.config());
        }
    }

    private void read(InputStream in, ByteBuffer buffer, long position) throws IOException {
        byte[] chunk = new byte[Math.min(buffer.remaining(), 64 << 10)];
        long at = position;
        while (buffer.hasRemaining()) {
            int read = in.read(chunk, 0, Math.min(chunk.length, buffer.remaining()));
            if (read < 0) {
                throw new EOFException(location + " ended at byte " + at + ", before the " + size
                        + " bytes it was listed with: the object is truncated or was replaced");
            }
            buffer.put(chunk, 0, read);
            at += read;
        }
    }

    private synchronized S3Client client() {
        if (client == null) {
            client = storage.newClient();
        }
        return client;
    }

    @Override
    public synchronized void close() {
        if (client != null) {
            client.close();
            client = null;
        }
    }

    @Override
    public String toString() {
        return location.toString();
    }
}
