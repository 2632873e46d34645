package dev.quiver.engine.source.storage.s3;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.source.storage.Location;
import java.io.IOException;
import java.io.InputStream;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * An object's bytes from an offset on, read in order by ranged GETs of {@value #CHUNK_BYTES}
 * bytes each, the next one asked for only when the last is used up: a reader of a CSV byte range
 * that stops a little past its range's end fetches at most one chunk it does not need.
 */
final class S3RangeInputStream extends InputStream {
    static final int CHUNK_BYTES = 8 << 20;

    private final S3Storage storage;
    private final S3Path path;
    private final Location location;
    private S3Client client;
    private ResponseInputStream<GetObjectResponse> chunk;
    /** The offset of the next byte to return. */
    private long position;
    /** The offset the current chunk ends at. */
    private long chunkEnd;
    private boolean eof;

    S3RangeInputStream(S3Storage storage, S3Path path, Location location, long offset) {
        this.storage = requireNonNull(storage, "storage is null");
        this.path = requireNonNull(path, "path is null");
        this.location = requireNonNull(location, "location is null");
        this.position = offset;
        this.chunkEnd = offset;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int read = read(one, 0, 1);
        return read < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] bytes, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        while (!eof) {
            if (chunk == null && !nextChunk()) {
                return -1;
            }
            int read = chunk.read(bytes, offset, length);
            if (read > 0) {
                position += read;
                return read;
            }
            closeChunk(false);
            if (position < chunkEnd) {
                eof = true; // the object ended inside the chunk
            }
        }
        return -1;
    }

    /** Opens the GET of the next chunk; false at the object's end. */
    private boolean nextChunk() throws IOException {
        if (client == null) {
            client = storage.newClient();
        }
        String range = "bytes=" + position + "-" + (position + CHUNK_BYTES - 1);
        try {
            chunk = client.getObject(request -> request.bucket(path.bucket()).key(path.key()).range(range));
            chunkEnd = position + CHUNK_BYTES;
            return true;
        } catch (S3Exception e) {
            if (e.statusCode() == 416) {
                eof = true; // the offset is the object's size: nothing more
                return false;
            }
            throw S3Errors.of(e, "read", location, storage.config());
        } catch (SdkException e) {
            throw S3Errors.of(e, "read", location, storage.config());
        }
    }

    /** Closes the current GET; {@code abort} when it was not read to its end (so the rest is not fetched). */
    private void closeChunk(boolean abort) throws IOException {
        if (chunk != null) {
            if (abort) {
                chunk.abort();
            }
            chunk.close();
            chunk = null;
        }
    }

    @Override
    public void close() throws IOException {
        eof = true;
        try {
            closeChunk(true);
        } finally {
            if (client != null) {
                client.close();
                client = null;
            }
        }
    }
}
