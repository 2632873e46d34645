package dev.quiver.engine.source.storage.s3;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.storage.Location;
import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A new object: its bytes go to a local temporary file, uploaded by one PUT when the stream is
 * closed (so the object appears whole or not at all) and then deleted.
 */
final class S3OutputStream extends FilterOutputStream {
    private final S3Storage storage;
    private final S3Path path;
    private final Location location;
    private final Path staging;
    private boolean closed;

    private S3OutputStream(OutputStream out, S3Storage storage, S3Path path, Location location, Path staging) {
        super(out);
        this.storage = storage;
        this.path = path;
        this.location = location;
        this.staging = staging;
    }

    static S3OutputStream create(S3Storage storage, S3Path path, Location location) {
        requireNonNull(storage, "storage is null");
        try {
            Path staging = Files.createTempFile("quiver-s3-", ".part");
            return new S3OutputStream(new BufferedOutputStream(Files.newOutputStream(staging), 1 << 16), storage, path, location, staging);
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot write " + location + ": no local temporary file (" + e.getMessage() + ")", e);
        }
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        out.write(bytes, offset, length);
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            out.close();
            try (S3Client client = storage.newClient()) {
                client.putObject(request -> request.bucket(path.bucket()).key(path.key()), RequestBody.fromFile(staging));
            } catch (SdkException e) {
                throw S3Errors.of(e, "write", location, storage.config());
            }
        } finally {
            Files.deleteIfExists(staging);
        }
    }
}
