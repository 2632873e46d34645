package dev.quiver.sql.catalog;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.files.ColumnTypes;
import dev.quiver.engine.source.files.DataFiles;
import dev.quiver.engine.source.files.FileFormat;
import dev.quiver.engine.source.files.FileListing;
import dev.quiver.engine.source.files.FileOptions;
import dev.quiver.engine.source.files.FileTables;
import dev.quiver.engine.source.json.JsonTable;
import dev.quiver.engine.source.storage.Storages;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A table named by its files, as DuckDB lets a query name one: a path or glob
 * ({@code FROM 'data/*.parquet'}, {@code FROM "x.csv"}) or a table function call
 * ({@code read_parquet('data/*.parquet', hive_partitioning = true)}, {@code read_csv('x.csv',
 * delim = ';')}). The parser turns both into a quoted identifier holding the text (see
 * {@code FileReferenceTokens} in quiver-sql's planner); this class reads that text back.
 *
 * @param name the text, which is also the table's name in plans
 * @param locations the paths or patterns
 * @param format the format, when the function or the extension says
 * @param json whether the files are JSON Lines ({@code read_json}, or a {@code .json}/{@code .jsonl}/{@code .ndjson} path)
 * @param columns the columns given with {@code columns = {...}} (CSV, JSON)
 * @param options the other named arguments
 */
public record FileReference(String name, List<String> locations, Optional<FileFormat> format, boolean json, Optional<Schema> columns,
        Map<String, Object> options) {
    private static final Pattern CALL = Pattern.compile("(?is)\\s*([a-z_]+)\\s*\\((.*)\\)\\s*");
    private static final Map<String, FileFormat> FUNCTIONS = Map.of(
            "read_parquet", FileFormat.PARQUET, "parquet_scan", FileFormat.PARQUET,
            "read_csv", FileFormat.CSV, "read_csv_auto", FileFormat.CSV);
    private static final Set<String> JSON_FUNCTIONS = Set.of("read_json", "read_json_auto", "read_ndjson", "read_ndjson_auto");

    public FileReference {
        requireNonNull(name, "name is null");
        locations = List.copyOf(locations);
        requireNonNull(format, "format is null");
        requireNonNull(columns, "columns is null");
        options = new LinkedHashMap<>(options);
    }

    /**
     * The reference {@code name} stands for, or empty when it is an ordinary table name: a call of
     * a reading function, or a path that looks like one (it has a directory part, a glob, or the
     * extension of a format Quiver reads).
     *
     * @throws QuiverException INVALID_ARGUMENT for a reading function called with bad arguments
     */
    public static Optional<FileReference> parse(String name) {
        Matcher call = CALL.matcher(name);
        if (call.matches()) {
            String function = call.group(1).toLowerCase(Locale.ROOT);
            if (JSON_FUNCTIONS.contains(function)) {
                return Optional.of(call(name, function, Optional.empty(), call.group(2)));
            }
            FileFormat format = FUNCTIONS.get(function);
            if (format != null) {
                return Optional.of(call(name, function, Optional.of(format), call.group(2)));
            }
            return Optional.empty();
        }
        if (JsonTable.EXTENSIONS.contains(DataFiles.extension(name))) {
            return Optional.of(new FileReference(name, List.of(name), Optional.empty(), true, Optional.empty(), Map.of()));
        }
        if (looksLikePath(name)) {
            return Optional.of(new FileReference(name, List.of(name), Optional.empty(), false, Optional.empty(), Map.of()));
        }
        return Optional.empty();
    }

    private static boolean looksLikePath(String name) {
        if (name.contains("/") || FileListing.isPattern(name)) {
            return true;
        }
        String extension = DataFiles.extension(name);
        for (FileFormat format : FileFormat.values()) {
            if (format.extensions().contains(extension)) {
                return true;
            }
        }
        return false;
    }

    /** A reading function's call; {@code format} empty for {@code read_json}. */
    private static FileReference call(String name, String function, Optional<FileFormat> format, String argumentText) {
        List<FunctionArguments.Argument> arguments = FunctionArguments.parse(function, argumentText);
        if (arguments.isEmpty() || arguments.get(0).name() != null) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, function + " needs the file as its first argument: "
                    + function + "('data/*." + format.map(f -> f.name().toLowerCase(Locale.ROOT)).orElse("jsonl") + "')");
        }
        List<String> locations = locations(function, arguments.get(0).value());
        Map<String, Object> options = new LinkedHashMap<>();
        Optional<Schema> columns = Optional.empty();
        for (FunctionArguments.Argument argument : arguments.subList(1, arguments.size())) {
            if (argument.name() == null) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, function + " takes one file argument; give the others by name, "
                        + "e.g. " + function + "('f', header = true)");
            }
            String option = argument.name().toLowerCase(Locale.ROOT);
            if (option.equals("columns") && !format.equals(Optional.of(FileFormat.PARQUET))) {
                columns = Optional.of(columns(function, argument.value()));
            } else if (options.put(option, argument.value()) != null) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, function + ": option " + option + " is given twice");
            }
        }
        return new FileReference(name, locations, format, format.isEmpty(), columns, options);
    }

    private static List<String> locations(String function, Object value) {
        if (value instanceof String location) {
            return List.of(location);
        }
        if (value instanceof List<?> list && !list.isEmpty() && list.stream().allMatch(item -> item instanceof String)) {
            return list.stream().map(String.class::cast).toList();
        }
        throw new QuiverException(ErrorCode.INVALID_ARGUMENT, function + ": the file argument is a path or glob in quotes, or a list of them "
                + "(['a.parquet', 'b.parquet']), not " + value);
    }

    /** {@code {'a': 'INTEGER', 'b': 'VARCHAR'}}: the CSV columns, in order. */
    private static Schema columns(String function, Object value) {
        if (!(value instanceof Map<?, ?> map) || map.isEmpty()) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, function + ": columns is a map from names to types, e.g. "
                    + "columns = {'id': 'BIGINT', 'name': 'VARCHAR'}");
        }
        List<Field> fields = new ArrayList<>();
        map.forEach((column, type) -> fields.add(QuiverTypes.field(String.valueOf(column), ColumnTypes.parse(String.valueOf(type)), true)));
        return new Schema(fields);
    }

    /** Opens the files (through {@code storages}) as a table named {@link #name}. */
    public TableSource open(Storages storages) {
        if (json) {
            return JsonTable.open(storages, name, locations, columns, new FileOptions(options));
        }
        return FileTables.open(storages, name, locations, format, columns, new FileOptions(options));
    }
}
