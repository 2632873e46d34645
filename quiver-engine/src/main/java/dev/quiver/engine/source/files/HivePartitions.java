package dev.quiver.engine.source.files;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.stats.ColumnStatistics;
import dev.quiver.engine.stats.Estimate;
import dev.quiver.engine.types.QuiverTypes;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import dev.quiver.engine.source.storage.Location;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Hive-style partitioning: directories named {@code key=value} in a file's path (Spark, Hive,
 * DuckDB's {@code PARTITION_BY} and Quiver's {@code COPY} write them) become columns of the
 * table, after the files' own columns and in the order of their names, as DuckDB orders them.
 * Values are URL-decoded ({@code %20} is a space); {@value #DEFAULT_PARTITION} is NULL.
 *
 * <p>Types, as DuckDB's {@code hive_types_autocast} gives them: a key whose every value reads as
 * a DATE ({@code 2024-01-31}) is DATE, else as a BIGINT is BIGINT, else as a TIMESTAMP
 * ({@code 2024-01-31 10:00:00}) is TIMESTAMP, else VARCHAR; a value reads as a type only if it is
 * that type's own spelling of the value ({@code month=01} is not the BIGINT 1, so it is VARCHAR).
 *
 * <p>{@link Mode#AUTO} (the default) partitions a table when every file's path has the same
 * non-empty set of keys; {@link Mode#ON} requires that, {@link Mode#OFF} never partitions.
 */
public final class HivePartitions {
    public static final String DEFAULT_PARTITION = "__HIVE_DEFAULT_PARTITION__";
    private static final Pattern BIGINT = Pattern.compile("-?(0|[1-9]\\d{0,18})");

    /** Whether a table reads its files' paths for partition columns. */
    public enum Mode {
        AUTO,
        ON,
        OFF
    }

    /**
     * The partition columns of a table and each file's values of them (in column order, Java
     * values as {@link QuiverTypes} describes; null for NULL).
     */
    public record Partitioning(List<Field> columns, Map<Location, List<Object>> values) {
        public static final Partitioning NONE = new Partitioning(List.of(), Map.of());

        public Partitioning {
            columns = List.copyOf(columns);
            values = Map.copyOf(values);
        }

        /** This partitioning without the columns named in {@code names} (lower case), e.g. those the files have themselves. */
        public Partitioning without(Set<String> names) {
            List<Integer> kept = new ArrayList<>();
            for (int c = 0; c < columns.size(); c++) {
                if (!names.contains(columns.get(c).getName().toLowerCase(Locale.ROOT))) {
                    kept.add(c);
                }
            }
            if (kept.size() == columns.size()) {
                return this;
            }
            if (kept.isEmpty()) {
                return NONE;
            }
            Map<Location, List<Object>> keptValues = new HashMap<>();
            values.forEach((file, row) -> {
                List<Object> keptRow = new ArrayList<>();
                kept.forEach(c -> keptRow.add(row.get(c)));
                keptValues.put(file, Collections.unmodifiableList(keptRow));
            });
            return new Partitioning(kept.stream().map(columns::get).toList(), keptValues);
        }

        public List<Object> valuesOf(Location file) {
            return columns.isEmpty() ? List.of() : values.get(file);
        }

        /**
         * Statistics of the partition columns over {@code files}: exact bounds, NULL counts in
         * files (one file counts as one "row" here) and the number of distinct values.
         */
        public List<ColumnStatistics> statistics(Collection<Location> files) {
            List<ColumnStatistics> statistics = new ArrayList<>(columns.size());
            for (int c = 0; c < columns.size(); c++) {
                Object min = null;
                Object max = null;
                long nulls = 0;
                Set<Object> distinct = new HashSet<>();
                for (Location file : files) {
                    Object value = values.get(file).get(c);
                    if (value == null) {
                        nulls++;
                        continue;
                    }
                    distinct.add(value);
                    min = min == null || StatsValues.compare(value, min) < 0 ? value : min;
                    max = max == null || StatsValues.compare(value, max) > 0 ? value : max;
                }
                statistics.add(new ColumnStatistics(Estimate.exact(nulls), Estimate.inexact(distinct.size()),
                        Optional.ofNullable(min), Optional.ofNullable(max), min != null));
            }
            return statistics;
        }
    }

    private HivePartitions() {}

    /** The partitioning of {@code files} under {@code mode}; with {@code autocast} false every key is VARCHAR. */
    public static Partitioning of(List<Location> files, Mode mode, boolean autocast) {
        if (mode == Mode.OFF || files.isEmpty()) {
            return Partitioning.NONE;
        }
        List<Map<String, String>> keys = new ArrayList<>(files.size());
        for (Location file : files) {
            keys.add(keys(file));
        }
        Set<String> names = keys.get(0).keySet();
        for (int f = 0; f < files.size(); f++) {
            if (names.isEmpty() || !keys.get(f).keySet().equals(names)) {
                if (mode == Mode.AUTO) {
                    return Partitioning.NONE;
                }
                throw new QuiverException(ErrorCode.SOURCE_ERROR, names.isEmpty()
                        ? "hive_partitioning is on, but the path of " + files.get(0) + " has no key=value directory"
                        : "hive_partitioning: the path of " + files.get(f) + " has the keys " + keys.get(f).keySet()
                                + ", unlike " + files.get(0) + " with " + names);
            }
        }
        List<Field> columns = new ArrayList<>();
        List<ArrowType> types = new ArrayList<>();
        for (String name : names) {
            ArrowType type = autocast ? type(keys.stream().map(k -> k.get(name)).toList()) : QuiverTypes.UTF8;
            types.add(type);
            columns.add(QuiverTypes.field(name, type, true));
        }
        Map<Location, List<Object>> values = new HashMap<>();
        for (int f = 0; f < files.size(); f++) {
            List<Object> row = new ArrayList<>(names.size());
            int c = 0;
            for (String name : names) {
                row.add(value(keys.get(f).get(name), types.get(c++)));
            }
            values.put(files.get(f), Collections.unmodifiableList(row));
        }
        return new Partitioning(columns, values);
    }

    /** The {@code key=value} directories of a path, by key (the last one of a key wins). */
    static Map<String, String> keys(Location file) {
        Map<String, String> keys = new TreeMap<>();
        for (String name : file.parentNames()) {
            int equals = name.indexOf('=');
            if (equals > 0) {
                keys.put(decode(name.substring(0, equals)), decode(name.substring(equals + 1)));
            }
        }
        return keys;
    }

    private static ArrowType type(List<String> values) {
        List<String> present = values.stream().filter(v -> !v.equals(DEFAULT_PARTITION)).toList();
        if (present.isEmpty()) {
            return QuiverTypes.UTF8;
        }
        if (present.stream().allMatch(TextValues::isDate)) {
            return QuiverTypes.DATE32;
        }
        if (present.stream().allMatch(v -> BIGINT.matcher(v).matches() && !v.equals("-0") && TextValues.fitsLong(v))) {
            return QuiverTypes.INT64;
        }
        if (present.stream().allMatch(HivePartitions::isSpaceTimestamp)) {
            return QuiverTypes.TIMESTAMP;
        }
        return QuiverTypes.UTF8;
    }

    /** A timestamp as BIGINT's sibling types spell it in a path: with a space, not a {@code T}. */
    private static boolean isSpaceTimestamp(String value) {
        return value.indexOf('T') < 0 && TextValues.isTimestamp(value);
    }

    private static Object value(String text, ArrowType type) {
        if (text.equals(DEFAULT_PARTITION)) {
            return null;
        }
        if (type.equals(QuiverTypes.DATE32)) {
            return (int) LocalDate.parse(text).toEpochDay();
        }
        if (type.equals(QuiverTypes.INT64)) {
            return Long.parseLong(text);
        }
        if (type.equals(QuiverTypes.TIMESTAMP)) {
            LocalDateTime timestamp = LocalDateTime.parse(text.replace(' ', 'T'));
            return timestamp.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + timestamp.getNano() / 1_000;
        }
        return text;
    }

    /** {@code %XX} escapes decoded as UTF-8 bytes; a {@code +} stays a plus (paths are not form data). */
    static String decode(String text) {
        if (text.indexOf('%') < 0) {
            return text;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(text.length());
        int i = 0;
        while (i < text.length()) {
            int c = text.codePointAt(i);
            if (c == '%' && i + 2 < text.length() && hex(text.charAt(i + 1)) >= 0 && hex(text.charAt(i + 2)) >= 0) {
                bytes.write(hex(text.charAt(i + 1)) * 16 + hex(text.charAt(i + 2)));
                i += 3;
            } else {
                byte[] encoded = new String(Character.toChars(c)).getBytes(StandardCharsets.UTF_8);
                bytes.write(encoded, 0, encoded.length);
                i += Character.charCount(c);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static int hex(char c) {
        return Character.digit(c, 16);
    }
}
