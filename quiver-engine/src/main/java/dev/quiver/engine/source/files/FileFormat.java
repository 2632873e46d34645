package dev.quiver.engine.source.files;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.arrow.ArrowTable;
import dev.quiver.engine.source.csv.CsvTable;
import dev.quiver.engine.source.storage.FileEntry;
import dev.quiver.engine.source.storage.Location;
import dev.quiver.engine.source.storage.Storages;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/** The file formats Quiver reads tables from and writes TPC-H datasets in. */
public enum FileFormat {
    PARQUET(".parquet", Set.of(".parquet")),
    ARROW(".arrow", ArrowTable.EXTENSIONS),
    CSV(".csv", CsvTable.EXTENSIONS);

    private final String extension;
    private final Set<String> extensions;

    FileFormat(String extension, Set<String> extensions) {
        this.extension = extension;
        this.extensions = extensions;
    }

    /** The extension files of this format are written with, e.g. {@code .arrow}. */
    public String extension() {
        return extension;
    }

    /** Every extension files of this format are recognised by. */
    public Set<String> extensions() {
        return extensions;
    }

    /** The format named as in {@code STORED AS} or {@code --format}: parquet, arrow (or feather, ipc), csv. */
    public static FileFormat fromName(String name) {
        String lower = name.strip().toLowerCase(Locale.ROOT);
        return switch (lower) {
            case "parquet" -> PARQUET;
            case "arrow", "feather", "ipc" -> ARROW;
            case "csv" -> CSV;
            default -> throw new QuiverException(ErrorCode.INVALID_ARGUMENT,
                    "Unknown file format '" + name + "'; use PARQUET, ARROW or CSV");
        };
    }

    /**
     * The format of a table location: a pattern or file by its extension ({@code data/*.parquet}),
     * a directory by the extension of its files, a pattern without an extension by the files it
     * matches; several locations by the first.
     */
    public static FileFormat detect(Storages storages, List<String> locations) {
        if (locations.isEmpty()) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "No file given");
        }
        String location = locations.get(0);
        if (!FileListing.isPattern(location)) {
            return detect(storages, Location.of(location));
        }
        String last = location.substring(location.lastIndexOf('/') + 1);
        FileFormat format = FileListing.isPattern(DataFiles.extension(last)) ? null : byExtension(DataFiles.extension(last));
        if (format != null) {
            return format;
        }
        List<FileEntry> files = FileListing.list(storages, List.of(location), Set.of(), "data");
        format = byExtension(DataFiles.extension(files.get(0).location().fileName()));
        if (format == null) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "cannot tell the format of " + files.get(0).location() + " (matched by '"
                    + location + "') from its extension; name the files .parquet, .arrow, .feather or .csv, or use read_parquet, read_csv");
        }
        return format;
    }

    /** The format of a local file or directory ({@link #detect(Storages, Location)}). */
    public static FileFormat detect(Path path) {
        return detect(Storages.LOCAL, Location.of(path));
    }

    /** The format of a file by its extension, or of a directory by the extension of the files in it. */
    public static FileFormat detect(Storages storages, Location path) {
        Optional<FileEntry> entry = storages.of(path).stat(path);
        if (entry.isEmpty()) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "path " + path + " does not exist");
        }
        if (!entry.get().directory()) {
            FileFormat format = byExtension(DataFiles.extension(path.fileName()));
            if (format == null) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "cannot tell the format of " + path
                        + " from its extension; name it .parquet, .arrow, .feather or .csv, or give the format (STORED AS ...)");
            }
            return format;
        }
        Set<FileFormat> found = new TreeSet<>();
        Set<String> known = new TreeSet<>();
        Arrays.stream(values()).forEach(format -> known.addAll(format.extensions));
        try {
            FileListing.list(storages, List.of(path.toString()), known, "data").stream()
                    .map(file -> byExtension(DataFiles.extension(file.location().fileName())))
                    .forEach(found::add);
        } catch (QuiverException e) {
            // a directory without data files: reported below
        }
        if (found.size() != 1) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "cannot tell the format of directory " + path + ": it holds "
                    + (found.isEmpty() ? "no .parquet, .arrow, .feather or .csv files" : "files of several formats " + found)
                    + "; give the format (STORED AS ...)");
        }
        return found.iterator().next();
    }

    private static FileFormat byExtension(String extension) {
        List<FileFormat> formats = Arrays.stream(values()).filter(format -> format.extensions.contains(extension)).toList();
        return formats.isEmpty() ? null : formats.get(0);
    }
}
