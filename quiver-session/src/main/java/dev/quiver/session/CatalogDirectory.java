package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.files.ColumnTypes;
import dev.quiver.engine.source.files.StagedOutput;
import dev.quiver.engine.types.QuiverTypes;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The directory of {@code quiver sql --catalog DIR}: {@code catalog.json} lists the views, the
 * external tables (the statement that made each, its location made absolute) and the stored tables
 * (a directory of Parquet files under {@code tables/} each); {@code quiver.lock} is held, with an
 * OS file lock, as long as a session uses the directory, so a second process fails clearly
 * instead of writing over the first. {@code catalog.json} is replaced as a whole (written aside,
 * then renamed) on every change. Thread-safe.
 */
final class CatalogDirectory implements AutoCloseable {
    static final String MANIFEST = "catalog.json";
    static final String LOCK = "quiver.lock";
    static final String TABLES = "tables";
    private static final String FORMAT = "quiver-catalog";
    private static final int VERSION = 1;

    /** A view: its name and query. */
    record ViewEntry(String name, String sql) {}

    /** An external table: the statement that made it and the columns it had (used when its files cannot be opened). */
    record ExternalEntry(String name, String statement, Schema columns) {}

    /** A stored table: its directory (relative to {@link #TABLES}) and columns. */
    record TableEntry(String name, String directory, Schema columns) {}

    private final Path path;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private final Map<String, ViewEntry> views = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private final Map<String, ExternalEntry> externals = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private final Map<String, TableEntry> tables = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);

    private CatalogDirectory(Path path, FileChannel lockChannel, FileLock lock) {
        this.path = path;
        this.lockChannel = lockChannel;
        this.lock = lock;
    }

    /**
     * Opens (creating it if needed) and locks {@code directory}, and reads its catalog.
     *
     * @throws QuiverException INVALID_CONFIGURATION when the directory cannot be created or written,
     *     another session holds it, or its catalog.json cannot be read
     */
    static CatalogDirectory open(Path directory) {
        Path path = requireNonNull(directory, "directory is null").toAbsolutePath().normalize();
        if (Files.exists(path) && !Files.isDirectory(path)) {
            throw problem(path, "is a file, not a directory");
        }
        try {
            Files.createDirectories(path.resolve(TABLES));
        } catch (IOException e) {
            throw problem(path, "cannot be created or written: " + describe(e));
        }
        if (!Files.isWritable(path)) {
            throw problem(path, "is not writable (permission denied)");
        }
        FileChannel channel;
        try {
            channel = FileChannel.open(path.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw problem(path, "is not writable: cannot open " + LOCK + ": " + describe(e));
        }
        CatalogDirectory opened = null;
        try {
            FileLock lock = lockOrExplain(path, channel);
            opened = new CatalogDirectory(path, channel, lock);
            opened.writeOwner();
            opened.read();
            return opened;
        } catch (RuntimeException e) {
            if (opened != null) {
                opened.close();
            } else {
                closeQuietly(channel);
            }
            throw e;
        }
    }

    private static FileLock lockOrExplain(Path path, FileChannel channel) {
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            throw problem(path, "is in use by another session of this process; close it first");
        } catch (IOException e) {
            throw problem(path, "cannot be locked: " + describe(e));
        }
        if (lock == null) {
            String owner;
            try {
                owner = Files.readString(path.resolve(LOCK), StandardCharsets.UTF_8).strip();
            } catch (IOException e) {
                owner = "";
            }
            throw problem(path, "is in use by another Quiver process" + (owner.isEmpty() ? "" : " (" + owner + ")")
                    + "; a catalog directory serves one process at a time");
        }
        return lock;
    }

    /** The directory (absolute). */
    Path path() {
        return path;
    }

    /** Where stored tables keep their directories. */
    Path tablesDirectory() {
        return path.resolve(TABLES);
    }

    synchronized List<ViewEntry> views() {
        return List.copyOf(views.values());
    }

    synchronized List<ExternalEntry> externals() {
        return List.copyOf(externals.values());
    }

    synchronized List<TableEntry> tables() {
        return List.copyOf(tables.values());
    }

    synchronized void putView(String name, String sql) {
        views.put(name, new ViewEntry(name, sql));
        save();
    }

    synchronized void removeView(String name) {
        if (views.remove(name) != null) {
            save();
        }
    }

    synchronized void putExternal(String name, String statement, Schema columns) {
        tables.remove(name);
        externals.put(name, new ExternalEntry(name, statement, columns));
        save();
    }

    synchronized void putTable(String name, String directory, Schema columns) {
        externals.remove(name);
        tables.put(name, new TableEntry(name, directory, columns));
        save();
    }

    /** Forgets a table of either kind. */
    synchronized void removeTable(String name) {
        boolean removed = externals.remove(name) != null;
        removed |= tables.remove(name) != null;
        if (removed) {
            save();
        }
    }

    private void writeOwner() {
        try {
            lockChannel.truncate(0);
            lockChannel.write(ByteBuffer.wrap(("pid " + ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.UTF_8)), 0);
        } catch (IOException e) {
            throw problem(path, "is not writable: " + describe(e));
        }
    }

    private void read() {
        Path manifest = path.resolve(MANIFEST);
        if (!Files.exists(manifest)) {
            return;
        }
        try {
            JsonNode root = mapper.readTree(manifest.toFile());
            if (!FORMAT.equals(root.path("format").asText()) || root.path("version").asInt(-1) != VERSION) {
                throw problem(path, "holds a " + MANIFEST + " that is not a Quiver catalog of version " + VERSION
                        + " (format " + root.path("format").asText("?") + ", version " + root.path("version").asText("?") + ")");
            }
            for (JsonNode view : root.path("views")) {
                views.put(name(view), new ViewEntry(name(view), view.path("sql").asText()));
            }
            for (JsonNode table : root.path("external_tables")) {
                externals.put(name(table), new ExternalEntry(name(table), table.path("statement").asText(), columns(table.path("columns"))));
            }
            for (JsonNode table : root.path("tables")) {
                tables.put(name(table), new TableEntry(name(table), table.path("directory").asText(), columns(table.path("columns"))));
            }
        } catch (IOException | RuntimeException e) {
            if (e instanceof QuiverException quiver && quiver.errorCode() == ErrorCode.INVALID_CONFIGURATION) {
                throw quiver;
            }
            throw problem(path, "holds a " + MANIFEST + " Quiver cannot read: " + e.getMessage());
        }
    }

    private static String name(JsonNode entry) {
        String name = entry.path("name").asText();
        if (name.isEmpty()) {
            throw new IllegalArgumentException("an entry has no name: " + entry);
        }
        return name;
    }

    private void save() {
        ObjectNode root = mapper.createObjectNode();
        root.put("format", FORMAT).put("version", VERSION);
        ArrayNode viewNodes = root.putArray("views");
        views.values().forEach(view -> viewNodes.addObject().put("name", view.name()).put("sql", view.sql()));
        ArrayNode externalNodes = root.putArray("external_tables");
        externals.values().forEach(table -> {
            ObjectNode node = externalNodes.addObject().put("name", table.name()).put("statement", table.statement());
            node.set("columns", columnsJson(table.columns()));
        });
        ArrayNode tableNodes = root.putArray("tables");
        tables.values().forEach(table -> {
            ObjectNode node = tableNodes.addObject().put("name", table.name()).put("directory", table.directory());
            node.set("columns", columnsJson(table.columns()));
        });
        StagedOutput output = StagedOutput.file(path.resolve(MANIFEST));
        try {
            Files.write(output.path(), mapper.writeValueAsBytes(root));
            output.commit();
        } catch (IOException e) {
            output.abort();
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot write " + path.resolve(MANIFEST) + ": " + describe(e), e);
        } catch (RuntimeException e) {
            output.abort();
            throw e;
        }
    }

    private ArrayNode columnsJson(Schema schema) {
        ArrayNode columns = mapper.createArrayNode();
        for (Field field : schema.getFields()) {
            columns.addObject().put("name", field.getName()).put("type", QuiverTypes.sqlName(field.getType())).put("nullable", field.isNullable());
        }
        return columns;
    }

    private static Schema columns(JsonNode columns) {
        List<Field> fields = new ArrayList<>();
        for (JsonNode column : columns) {
            fields.add(QuiverTypes.field(column.path("name").asText(), ColumnTypes.parse(column.path("type").asText()), column.path("nullable").asBoolean(true)));
        }
        return new Schema(fields);
    }

    /** Releases the lock; the directory stays as it is. */
    @Override
    public synchronized void close() {
        try {
            if (lock.isValid()) {
                lock.release();
            }
        } catch (IOException e) {
            // closing the channel below releases the lock too
        } finally {
            closeQuietly(lockChannel);
        }
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // nothing was written through it that could be lost
        }
    }

    private static QuiverException problem(Path path, String what) {
        return new QuiverException(ErrorCode.INVALID_CONFIGURATION, "Catalog directory " + path + " " + what);
    }

    private static String describe(IOException e) {
        return e instanceof AccessDeniedException ? "permission denied" : e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
