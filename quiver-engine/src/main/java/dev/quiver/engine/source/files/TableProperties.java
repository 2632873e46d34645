package dev.quiver.engine.source.files;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.storage.FileEntry;
import dev.quiver.engine.source.storage.Location;
import dev.quiver.engine.source.storage.Storage;
import dev.quiver.engine.source.storage.Storages;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The optional file {@value #FILE_NAME} in a table's directory: what a table declares that its data
 * files cannot say, read by every file format. Today one property:
 * <pre>
 * # columns of each key separated by commas, keys by semicolons
 * unique_keys=l_orderkey,l_linenumber
 * </pre>
 * A key declared here is trusted, not checked (like the NOT ENFORCED constraints of other
 * engines): the optimizer removes aggregates and orders joins by it, so a declared key that does
 * not hold gives wrong results. {@code quiver tpch-gen} writes the TPC-H primary keys. The name
 * starts with {@code _}, so listing a directory's data files skips it.
 */
public final class TableProperties {
    public static final String FILE_NAME = "_quiver_table.properties";
    public static final String UNIQUE_KEYS = "unique_keys";

    private TableProperties() {}

    /**
     * The unique keys declared for the table at {@code tablePath} (a directory; a single file has
     * none), as column ordinals of {@code schema}; empty when nothing is declared.
     *
     * @throws QuiverException SOURCE_ERROR naming the file when it cannot be read or names a column the table lacks
     */
    public static List<List<Integer>> uniqueKeys(Storages storages, Location tablePath, Schema schema) {
        Storage storage = storages.of(tablePath);
        if (!storage.stat(tablePath).map(FileEntry::directory).orElse(false)) {
            return List.of();
        }
        Location file = tablePath.resolve(FILE_NAME);
        if (storage.stat(file).map(entry -> entry.directory()).orElse(true)) {
            return List.of();
        }
        Properties properties = new Properties();
        try (Reader reader = new InputStreamReader(storage.open(file, 0), StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot read table properties " + file + ": " + e.getMessage(), e);
        }
        String value = properties.getProperty(UNIQUE_KEYS, "").trim();
        List<List<Integer>> keys = new ArrayList<>();
        for (String key : value.split(";")) {
            if (key.isBlank()) {
                continue;
            }
            List<Integer> columns = new ArrayList<>();
            for (String column : key.split(",")) {
                columns.add(ordinal(schema, column.trim(), file));
            }
            keys.add(List.copyOf(columns));
        }
        return List.copyOf(keys);
    }

    /** Writes {@value #FILE_NAME} into {@code directory} declaring {@code keys} (column ordinals of {@code schema}). */
    public static void writeUniqueKeys(Path directory, Schema schema, List<List<Integer>> keys) {
        String value = keys.stream()
                .map(key -> key.stream().map(c -> schema.getFields().get(c).getName()).collect(Collectors.joining(",")))
                .collect(Collectors.joining(";"));
        Path file = directory.resolve(FILE_NAME);
        try (Writer writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            writer.write("# Quiver table properties: each key's columns separated by commas, keys by semicolons.\n");
            writer.write("# Keys are trusted, not checked: a key that does not hold makes queries wrong.\n");
            writer.write(UNIQUE_KEYS + "=" + value + "\n");
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot write table properties " + file + ": " + e.getMessage(), e);
        }
    }

    private static int ordinal(Schema schema, String column, Location file) {
        List<Field> fields = schema.getFields();
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).getName().toLowerCase(Locale.ROOT).equals(column.toLowerCase(Locale.ROOT))) {
                return i;
            }
        }
        throw new QuiverException(ErrorCode.SOURCE_ERROR, "table properties " + file + " declare a unique key on column '" + column
                + "', which the table does not have (columns: "
                + fields.stream().map(Field::getName).collect(Collectors.joining(", ")) + ")");
    }
}
