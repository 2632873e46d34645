package dev.quiver.engine.source.storage;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Where table files live: the local file system ({@link LocalStorage}) or an object store
 * ({@code s3://}). Every reader and writer of files (Parquet, CSV, JSON, COPY TO) lists, opens and
 * creates them through this interface; {@link Storages} picks the one for a location.
 *
 * <p>Errors: a method fails with a {@link dev.quiver.engine.error.QuiverException} SOURCE_ERROR
 * naming the location (or an {@link java.io.IOException} from a stream's reads); a missing file is
 * {@link #stat} returning empty, not an error.
 */
public interface Storage {
    /** The file or directory at {@code location}, or empty when there is none. */
    Optional<FileEntry> stat(Location location);

    /** The files and directories directly inside {@code directory}, sorted by location. */
    List<FileEntry> list(Location directory);

    /**
     * Every file below {@code directory} at any depth, sorted by location, skipping hidden names
     * ({@link FileEntry#hidden}) and what is below hidden directories.
     */
    default List<FileEntry> listAll(Location directory) {
        List<FileEntry> files = new ArrayList<>();
        for (FileEntry entry : list(directory)) {
            if (entry.hidden()) {
                continue;
            }
            if (entry.directory()) {
                files.addAll(listAll(entry.location()));
            } else {
                files.add(entry);
            }
        }
        files.sort((a, b) -> a.location().compareTo(b.location()));
        return files;
    }

    /** Positional reads of the file at {@code location}, whose size ({@link FileEntry#size}) the caller knows. */
    RandomReader openRandom(Location location, long size);

    /** The file's bytes from {@code offset} to its end, read in order. */
    InputStream open(Location location, long offset);

    /** A new file at {@code location} (replacing one that is there), complete once the stream is closed. */
    OutputStream create(Location location);
}
