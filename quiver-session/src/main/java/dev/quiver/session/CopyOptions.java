package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.files.DataFiles;
import dev.quiver.engine.source.csv.CsvWriteOptions;
import dev.quiver.engine.source.files.FileFormat;
import dev.quiver.engine.source.files.FileWriteOptions;
import dev.quiver.engine.source.files.StagedOutput;
import dev.quiver.engine.source.parquet.ParquetWriteOptions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The options of {@code COPY ... TO 'path' (options)}, with DuckDB's names: {@code FORMAT PARQUET|CSV|ARROW}
 * (default: from the path's extension, else CSV), {@code PARTITION_BY (columns)},
 * {@code OVERWRITE} / {@code OVERWRITE_OR_IGNORE} (for a directory that exists), and for CSV
 * {@code HEADER} (default true), {@code DELIMITER} (also {@code DELIM}, {@code SEP}; default
 * {@code ,}), {@code QUOTE} (default {@code "}), {@code NULLSTR} (default empty); for Parquet
 * {@code COMPRESSION} (snappy, zstd, gzip, lz4_raw, uncompressed) and {@code ROW_GROUP_SIZE} (rows).
 */
record CopyOptions(FileFormat format, List<String> partitionBy, StagedOutput.Overwrite overwrite, FileWriteOptions writeOptions) {
    private static final Pattern OPTION = Pattern.compile("(?is)\\s*([A-Za-z_]+)\\s*(?:=\\s*)?(.*?)\\s*");
    private static final List<String> KNOWN = List.of("FORMAT", "PARTITION_BY", "OVERWRITE", "OVERWRITE_OR_IGNORE", "HEADER", "DELIMITER",
            "DELIM", "SEP", "QUOTE", "NULLSTR", "COMPRESSION", "CODEC", "ROW_GROUP_SIZE");

    CopyOptions {
        requireNonNull(format, "format is null");
        partitionBy = List.copyOf(requireNonNull(partitionBy, "partitionBy is null"));
        requireNonNull(overwrite, "overwrite is null");
        requireNonNull(writeOptions, "writeOptions is null");
    }

    /** The options of {@code list} (the text between the parentheses, or empty), for a COPY to {@code path}. */
    static CopyOptions parse(Optional<String> list, String path) {
        Map<String, String> options = new LinkedHashMap<>();
        for (String item : list.map(CopyOptions::splitTopLevel).orElse(List.of())) {
            Matcher matcher = OPTION.matcher(item);
            if (!matcher.matches()) {
                throw new QuiverException(ErrorCode.SYNTAX_ERROR, "Cannot read COPY option '" + item.strip() + "'; write NAME value, e.g. FORMAT PARQUET");
            }
            String name = matcher.group(1).toUpperCase(Locale.ROOT);
            if (!KNOWN.contains(name)) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "Unknown COPY option " + name + "; Quiver knows " + String.join(", ", KNOWN));
            }
            if (options.put(canonical(name), matcher.group(2)) != null) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "COPY option " + name + " is given twice");
            }
        }
        FileFormat format = options.containsKey("FORMAT") ? FileFormat.fromName(unquote(options.get("FORMAT"))) : formatOf(path);
        checkApplies(options, format);
        return new CopyOptions(format, partitionBy(options.get("PARTITION_BY")), overwrite(options), new FileWriteOptions(csv(options), parquet(options)));
    }

    /** DuckDB's default: the format of the path's extension, else CSV. */
    private static FileFormat formatOf(String path) {
        String extension = DataFiles.extension(path.replaceAll(".*[/\\\\]", ""));
        for (FileFormat format : FileFormat.values()) {
            if (format.extensions().contains(extension)) {
                return format;
            }
        }
        return FileFormat.CSV;
    }

    private static String canonical(String name) {
        return switch (name) {
            case "DELIM", "SEP" -> "DELIMITER";
            case "CODEC" -> "COMPRESSION";
            default -> name;
        };
    }

    private static void checkApplies(Map<String, String> options, FileFormat format) {
        List<String> csvOnly = List.of("HEADER", "DELIMITER", "QUOTE", "NULLSTR");
        List<String> parquetOnly = List.of("COMPRESSION", "ROW_GROUP_SIZE");
        for (String name : options.keySet()) {
            if (csvOnly.contains(name) && format != FileFormat.CSV || parquetOnly.contains(name) && format != FileFormat.PARQUET) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "COPY option " + name + " does not apply to format " + format);
            }
        }
        if (options.containsKey("OVERWRITE") && options.containsKey("OVERWRITE_OR_IGNORE")) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "COPY takes OVERWRITE or OVERWRITE_OR_IGNORE, not both");
        }
    }

    private static List<String> partitionBy(String value) {
        if (value == null) {
            return List.of();
        }
        String list = value.strip();
        if (list.startsWith("(") && list.endsWith(")")) {
            list = list.substring(1, list.length() - 1);
        }
        List<String> columns = new ArrayList<>();
        for (String column : list.split(",")) {
            String name = column.strip();
            if (!name.matches(StatementParser.NAME)) {
                throw new QuiverException(ErrorCode.SYNTAX_ERROR, "PARTITION_BY takes column names, e.g. PARTITION_BY (year, month); not '" + value.strip() + "'");
            }
            columns.add(StatementParser.identifier(name));
        }
        return columns;
    }

    private static StagedOutput.Overwrite overwrite(Map<String, String> options) {
        if (options.containsKey("OVERWRITE") && flag(options, "OVERWRITE")) {
            return StagedOutput.Overwrite.OVERWRITE;
        }
        return options.containsKey("OVERWRITE_OR_IGNORE") && flag(options, "OVERWRITE_OR_IGNORE")
                ? StagedOutput.Overwrite.OVERWRITE_OR_IGNORE : StagedOutput.Overwrite.REFUSE;
    }

    private static CsvWriteOptions csv(Map<String, String> options) {
        CsvWriteOptions defaults = CsvWriteOptions.defaults();
        boolean header = !options.containsKey("HEADER") || flag(options, "HEADER");
        char delimiter = options.containsKey("DELIMITER") ? character(options, "DELIMITER") : defaults.delimiter();
        char quote = options.containsKey("QUOTE") ? character(options, "QUOTE") : defaults.quote();
        String nullString = options.containsKey("NULLSTR") ? text(options, "NULLSTR") : defaults.nullString();
        return new CsvWriteOptions(header, delimiter, quote, nullString);
    }

    private static ParquetWriteOptions parquet(Map<String, String> options) {
        ParquetWriteOptions parquet = ParquetWriteOptions.defaults();
        if (options.containsKey("COMPRESSION")) {
            String codec = text(options, "COMPRESSION").toUpperCase(Locale.ROOT);
            try {
                parquet = parquet.withCompression(ParquetWriteOptions.Compression.valueOf(codec));
            } catch (IllegalArgumentException e) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "COPY: unknown Parquet COMPRESSION " + codec
                        + "; use snappy, zstd, gzip, lz4_raw or uncompressed");
            }
        }
        if (options.containsKey("ROW_GROUP_SIZE")) {
            String rows = text(options, "ROW_GROUP_SIZE");
            try {
                parquet = parquet.withRowGroupRows(Long.parseLong(rows.replace("_", "")));
            } catch (NumberFormatException e) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "COPY: ROW_GROUP_SIZE takes a number of rows, not '" + rows + "'");
            }
        }
        return parquet;
    }

    /** A boolean option: given alone it is true; else true/false, 1/0, on/off. */
    private static boolean flag(Map<String, String> options, String name) {
        String value = unquote(options.get(name)).toLowerCase(Locale.ROOT);
        return switch (value) {
            case "", "true", "1", "on", "yes" -> true;
            case "false", "0", "off", "no" -> false;
            default -> throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "COPY option " + name + " takes true or false, not '" + value + "'");
        };
    }

    private static char character(Map<String, String> options, String name) {
        String value = text(options, name).replace("\\t", "\t");
        if (value.length() != 1) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "COPY option " + name + " takes one character, not '" + value + "'");
        }
        return value.charAt(0);
    }

    private static String text(Map<String, String> options, String name) {
        String value = options.get(name);
        if (value.isEmpty()) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "COPY option " + name + " needs a value");
        }
        return unquote(value);
    }

    private static String unquote(String value) {
        String text = value.strip();
        if (text.length() >= 2 && text.startsWith("'") && text.endsWith("'")) {
            return text.substring(1, text.length() - 1).replace("''", "'");
        }
        return text;
    }

    /** The comma-separated items of {@code list}; commas inside parentheses or quotes belong to their item. */
    static List<String> splitTopLevel(String list) {
        List<String> items = new ArrayList<>();
        int depth = 0;
        boolean quoted = false;
        int start = 0;
        for (int i = 0; i < list.length(); i++) {
            char c = list.charAt(i);
            if (c == '\'') {
                quoted = !quoted;
            } else if (!quoted && c == '(') {
                depth++;
            } else if (!quoted && c == ')') {
                depth--;
            } else if (!quoted && depth == 0 && c == ',') {
                items.add(list.substring(start, i));
                start = i + 1;
            }
        }
        if (!list.substring(start).isBlank()) {
            items.add(list.substring(start));
        }
        return items;
    }
}
