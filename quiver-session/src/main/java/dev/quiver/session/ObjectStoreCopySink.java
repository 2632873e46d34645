package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.files.StagedOutput;
import dev.quiver.engine.source.storage.Location;
import dev.quiver.engine.source.storage.Storage;
import dev.quiver.engine.source.storage.Storages;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The sink of {@code COPY ... TO 's3://bucket/key'}: the files are written as a local COPY writes
 * them ({@link FileCopySink}), into a local temporary directory, and uploaded when the write
 * commits; an abort or a failed upload leaves no temporary files (objects uploaded before a
 * failed upload stay: an object store has no rename). A target ending in {@code /} is a
 * directory: one file {@code data_0.<ext>} in it, or with {@code PARTITION_BY} the Hive layout.
 */
final class ObjectStoreCopySink implements WriteSink {
    private final WriteSink local;
    private final Path temporary;
    private final Path written;
    private final Storage storage;
    private final Location target;

    private ObjectStoreCopySink(WriteSink local, Path temporary, Path written, Storage storage, Location target) {
        this.local = local;
        this.temporary = temporary;
        this.written = written;
        this.storage = storage;
        this.target = target;
    }

    /** Fails as opening would (a non-empty prefix without OVERWRITE, an unreachable store), writing nothing. */
    static void check(Storages storages, Location target, CopyOptions options) {
        Storage storage = storages.of(target);
        if (!options.partitionBy().isEmpty() && options.overwrite() == StagedOutput.Overwrite.REFUSE
                && storage.stat(target).map(entry -> entry.directory() && !storage.list(target).isEmpty()).orElse(false)) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, target + " already holds objects; add OVERWRITE to replace them, "
                    + "or OVERWRITE_OR_IGNORE to write among them");
        }
    }

    static WriteSink open(Storages storages, Location target, Schema schema, CopyOptions options, BufferAllocator allocator) {
        requireNonNull(target, "target is null");
        Storage storage = storages.of(target);
        Path temporary;
        try {
            temporary = Files.createTempDirectory("quiver-copy-");
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot write " + target + ": no local temporary directory (" + e.getMessage() + ")", e);
        }
        boolean intoDirectory = options.partitionBy().isEmpty() && target.toString().endsWith("/");
        Path written = temporary.resolve(intoDirectory ? "data_0" + options.format().extension() : "out");
        Location destination = intoDirectory ? new Location(target + "data_0" + options.format().extension()) : target;
        try {
            return new ObjectStoreCopySink(FileCopySink.open(written, schema, options, allocator), temporary, written, storage, destination);
        } catch (RuntimeException e) {
            delete(temporary);
            throw e;
        }
    }

    @Override
    public void write(VectorSchemaRoot batch) {
        local.write(batch);
    }

    @Override
    public long commit() {
        try {
            long rows = local.commit();
            upload();
            return rows;
        } finally {
            delete(temporary);
        }
    }

    private void upload() {
        if (!Files.isDirectory(written)) {
            upload(written, target);
            return;
        }
        List<Path> files;
        try (Stream<Path> walk = Files.walk(written)) {
            files = walk.filter(Files::isRegularFile).sorted().toList();
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot write " + target + ": " + e.getMessage(), e);
        }
        for (Path file : files) {
            upload(file, target.resolve(written.relativize(file).toString().replace('\\', '/')));
        }
    }

    private void upload(Path file, Location destination) {
        try (OutputStream out = storage.create(destination)) {
            Files.copy(file, out);
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot write " + destination + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void abort() {
        try {
            local.abort();
        } finally {
            delete(temporary);
        }
    }

    private static void delete(Path directory) {
        try {
            StagedOutput.deleteTree(directory);
        } catch (IOException e) {
            // a temporary directory: nothing of the result is lost
        }
    }
}
