package dev.quiver.engine.source.files;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.arrow.ArrowTable;
import dev.quiver.engine.source.csv.CsvTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

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

    /** The format of a file by its extension, or of a directory by the extension of the files in it. */
    public static FileFormat detect(Path path) {
        if (!Files.exists(path)) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "path " + path + " does not exist");
        }
        if (!Files.isDirectory(path)) {
            FileFormat format = byExtension(DataFiles.extension(path.getFileName().toString()));
            if (format == null) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "cannot tell the format of " + path
                        + " from its extension; name it .parquet, .arrow, .feather or .csv, or give the format (STORED AS ...)");
            }
            return format;
        }
        Set<FileFormat> found = new TreeSet<>();
        try (Stream<Path> entries = Files.list(path)) {
            entries.filter(Files::isRegularFile)
                    .map(file -> file.getFileName().toString())
                    .filter(name -> !name.startsWith(".") && !name.startsWith("_"))
                    .map(name -> byExtension(DataFiles.extension(name)))
                    .filter(format -> format != null)
                    .forEach(found::add);
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot list directory " + path + ": " + e.getMessage(), e);
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
