package dev.quiver.engine.source.csv;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.files.FileOptions;
import dev.quiver.engine.source.files.MultiFileOptions;
import java.util.List;
import java.util.Optional;

/**
 * The options of a CSV table, with DuckDB's names ({@code read_csv('f.csv', delim = ';', ...)}):
 * what is not given is sniffed from the first file ({@link CsvSniffer}).
 *
 * @param delimiter {@code delim} or {@code sep}: the field separator; sniffed among {@code , ; | \t} when absent
 * @param quote {@code quote}: default {@code "}
 * @param escape {@code escape}: default the quote (a doubled quote stands for one)
 * @param header {@code header}: whether the first row names the columns; sniffed when absent
 *     (a first row that does not read as the types of the rows below it is a header)
 * @param skipRows {@code skip}: rows to skip at the start of each file
 * @param nullStrings {@code nullstr}: a string or list of strings that are NULL when unquoted; default the empty field
 * @param ignoreErrors {@code ignore_errors}: skip rows with the wrong number of fields or a bad value, counting them
 * @param sampleRows {@code sample_size}: rows of the first file that type inference reads; -1 for all
 * @param allVarchar {@code all_varchar}: every inferred column is VARCHAR
 * @param files the options of tables of several files (Hive partitions)
 */
public record CsvOptions(Optional<Character> delimiter, char quote, char escape, Optional<Boolean> header, long skipRows,
        List<String> nullStrings, boolean ignoreErrors, long sampleRows, boolean allVarchar, MultiFileOptions files) {
    public static final int DEFAULT_SAMPLE_ROWS = 20_480;
    public static final CsvOptions DEFAULTS = new CsvOptions(Optional.empty(), '"', '"', Optional.empty(), 0, List.of(""), false,
            DEFAULT_SAMPLE_ROWS, false, MultiFileOptions.DEFAULTS);

    public CsvOptions {
        requireNonNull(delimiter, "delimiter is null");
        requireNonNull(header, "header is null");
        nullStrings = List.copyOf(requireNonNull(nullStrings, "nullStrings is null"));
        requireNonNull(files, "files is null");
        if (sampleRows == 0 || sampleRows < -1) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "CSV sample_size must be positive, or -1 for the whole file: " + sampleRows);
        }
    }

    /** The CSV options among {@code options} (DuckDB's names). */
    public static CsvOptions from(FileOptions options) {
        Optional<Character> delimiter = options.character("delim");
        Optional<Character> sep = options.character("sep");
        if (delimiter.isPresent() && sep.isPresent()) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "CSV: give delim or sep, not both");
        }
        char quote = options.character("quote").orElse('"');
        char escape = options.character("escape").orElse(quote);
        return new CsvOptions(delimiter.or(() -> sep), quote, escape, options.bool("header"), options.integer("skip").orElse(0L),
                options.strings("nullstr").orElse(List.of("")), options.bool("ignore_errors").orElse(false),
                options.integer("sample_size").orElse((long) DEFAULT_SAMPLE_ROWS), options.bool("all_varchar").orElse(false),
                MultiFileOptions.from(options));
    }

    /** The format to read with, once the delimiter and header are settled. */
    CsvFormat format(char delimiter, boolean header) {
        return new CsvFormat(delimiter, quote, escape, header, skipRows, nullStrings, ignoreErrors);
    }
}
