package dev.quiver.session;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.files.ColumnTypes;
import dev.quiver.engine.source.files.FileFormat;
import dev.quiver.engine.types.QuiverTypes;
import dev.quiver.sql.catalog.FunctionArguments;
import java.util.ArrayList;
import java.util.HashSet;
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
 * {@code CREATE [OR REPLACE] EXTERNAL TABLE [IF NOT EXISTS] name [(column type, ...)]
 * [STORED AS PARQUET|ARROW|CSV] LOCATION 'path' [OPTIONS (name value, ...)]} (OPTIONS may also
 * come before LOCATION, as DataFusion writes it) and {@code DROP TABLE [IF EXISTS] name}: parsing
 * of their parts (the statement pattern is in {@link StatementParser}).
 */
final class ExternalTables {
    /** Groups: 1 OR REPLACE, 2 IF NOT EXISTS, 3 name, 4 column list, 5 format, 6 options before LOCATION, 7 location, 8 options after. */
    static final Pattern CREATE = Pattern.compile("(?is)CREATE\\s+(OR\\s+REPLACE\\s+)?EXTERNAL\\s+TABLE\\s+(IF\\s+NOT\\s+EXISTS\\s+)?"
            + StatementParser.NAME + "\\s*(?:\\((.*)\\))?\\s*(?:STORED\\s+AS\\s+([A-Za-z]+)\\s+)?(?:OPTIONS\\s*\\((.*)\\)\\s*)?"
            + "LOCATION\\s+'((?:[^']|'')*)'(?:\\s*OPTIONS\\s*\\((.*)\\))?");
    /** Groups: 1 IF EXISTS, 2 name. */
    static final Pattern DROP = Pattern.compile("(?is)DROP\\s+TABLE\\s+(IF\\s+EXISTS\\s+)?" + StatementParser.NAME);
    private static final Pattern COLUMN = Pattern.compile("(?is)\\s*" + StatementParser.NAME + "\\s+(.+?)\\s*(NOT\\s+NULL|NULL)?\\s*");

    private ExternalTables() {}

    static Statement.CreateExternalTable create(Matcher matcher) {
        String name = StatementParser.identifier(matcher.group(3));
        Optional<Schema> columns = matcher.group(4) == null ? Optional.empty() : Optional.of(columns(matcher.group(4)));
        Optional<FileFormat> format = Optional.ofNullable(matcher.group(5)).map(FileFormat::fromName);
        String location = matcher.group(7).replace("''", "'");
        if (location.isBlank()) {
            throw new QuiverException(ErrorCode.SYNTAX_ERROR, "CREATE EXTERNAL TABLE " + name + ": LOCATION is empty");
        }
        if (matcher.group(6) != null && matcher.group(8) != null) {
            throw new QuiverException(ErrorCode.SYNTAX_ERROR, "CREATE EXTERNAL TABLE " + name + ": OPTIONS is given twice");
        }
        String optionText = matcher.group(6) != null ? matcher.group(6) : matcher.group(8);
        Map<String, Object> options = optionText == null ? Map.of() : FunctionArguments.options("CREATE EXTERNAL TABLE " + name, optionText);
        return new Statement.CreateExternalTable(name, columns, format, location, matcher.group(1) != null, matcher.group(2) != null, options);
    }

    /** {@code a BIGINT, b DECIMAL(15,2) NOT NULL, ...}: commas inside parentheses belong to the type. */
    static Schema columns(String list) {
        List<Field> fields = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (String column : splitTopLevel(list)) {
            Matcher matcher = COLUMN.matcher(column);
            if (!matcher.matches()) {
                throw new QuiverException(ErrorCode.SYNTAX_ERROR, "Cannot read column definition '" + column.strip()
                        + "'; write name TYPE, e.g. l_quantity DECIMAL(15,2)");
            }
            String name = StatementParser.identifier(matcher.group(1));
            if (!names.add(name.toLowerCase(Locale.ROOT))) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "Column '" + name + "' is declared twice");
            }
            boolean nullable = matcher.group(3) == null || !matcher.group(3).toUpperCase(Locale.ROOT).startsWith("NOT");
            fields.add(QuiverTypes.field(name, ColumnTypes.parse(matcher.group(2)), nullable));
        }
        if (fields.isEmpty()) {
            throw new QuiverException(ErrorCode.SYNTAX_ERROR, "The column list is empty; leave it out to take the files' columns");
        }
        return new Schema(fields);
    }

    private static List<String> splitTopLevel(String list) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < list.length(); i++) {
            char c = list.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(list.substring(start, i));
                start = i + 1;
            }
        }
        if (!list.substring(start).isBlank() || !parts.isEmpty()) {
            parts.add(list.substring(start));
        }
        return parts;
    }
}
