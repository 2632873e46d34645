package dev.quiver.session.sqllogic;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.List;
import java.util.stream.Stream;

/**
 * Finds the {@code .slt} files: under {@code quiver-session/src/test/sqllogictest} (the source tree,
 * so that the update mode rewrites the files in place), restricted by {@code -Dslt.files=GLOB}
 * (matched against the path relative to that directory, or the file name; e.g. {@code joins.slt},
 * {@code 'window/*'}).
 */
final class SltFiles {
    static final String FILES_PROPERTY = "slt.files";

    private SltFiles() {}

    /** One file: its path relative to the root (with {@code /}), its lines and its records. */
    record SltFile(String name, Path path, List<String> lines, List<SltRecord> records) {}

    static Path root() {
        Path module = Path.of(System.getProperty("basedir", System.getProperty("user.dir")));
        for (Path candidate : List.of(module.resolve("src/test/sqllogictest"), module.resolve("quiver-session/src/test/sqllogictest"))) {
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "No src/test/sqllogictest directory under " + module);
    }

    /** The selected files, in path order. */
    static List<SltFile> selected() {
        Path root = root();
        String glob = System.getProperty(FILES_PROPERTY, "**");
        PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + glob);
        try (Stream<Path> paths = Files.walk(root)) {
            List<SltFile> files = paths.filter(p -> p.toString().endsWith(".slt"))
                    .filter(p -> matcher.matches(root.relativize(p)) || matcher.matches(p.getFileName()))
                    .sorted()
                    .map(p -> read(root, p))
                    .toList();
            if (files.isEmpty()) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "No .slt file under " + root + " matches " + FILES_PROPERTY + "=" + glob);
            }
            return files;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static SltFile read(Path root, Path path) {
        String name = root.relativize(path).toString().replace('\\', '/');
        try {
            List<String> lines = Files.readAllLines(path, StandardCharsets.UTF_8);
            return new SltFile(name, path, lines, SltParser.parse(name, lines));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
