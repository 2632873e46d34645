package dev.quiver.session.sqllogic;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The 99 TPC-DS queries as Spark's test jar ships them ({@code tpcds/q1.sql} ... {@code q99.sql},
 * the two statements of q14, q23, q24 and q39 as {@code q14a}/{@code q14b}...: 103 statements),
 * unpacked by the build into {@code target/tpcds-queries}. Spark's texts are ANSI SQL with the
 * qualification parameters filled in, except for a few spellings both engines are given in
 * standard form: {@code INTERVAL 30 days} becomes {@code INTERVAL '30' DAY}; backquoted names become
 * double-quoted ones; q90's derived table alias {@code at} (a keyword to DuckDB) is quoted; and q30's
 * {@code c_last_review_date}, a TPC-DS 1.x column, is {@code c_last_review_date_sk} as the generator
 * (TPC-DS 2.x) names it. (Trino's texts quote every function name and carry placeholders;
 * hydromatic's are dsqgen templates.)
 */
final class TpcdsQueries {
    static final Set<Integer> TWO_STATEMENTS = Set.of(14, 23, 24, 39);
    private static final Pattern SPARK_INTERVAL = Pattern.compile("(?i)INTERVAL\\s+(\\d+)\\s+DAYS?\\b");
    private static final Pattern ALIAS_AT = Pattern.compile("(?i)\\)\\s+at\\s*,");
    private static final Pattern OLD_REVIEW_DATE = Pattern.compile("\\bc_last_review_date\\b");

    private TpcdsQueries() {}

    /** The statement names in order: {@code q1}, ..., {@code q14a}, {@code q14b}, ..., {@code q99}. */
    static List<String> names() {
        List<String> names = new ArrayList<>();
        for (int q = 1; q <= 99; q++) {
            if (TWO_STATEMENTS.contains(q)) {
                names.add("q" + q + "a");
                names.add("q" + q + "b");
            } else {
                names.add("q" + q);
            }
        }
        return names;
    }

    /** The text of one statement, in the form both engines run. */
    static String sql(String name) {
        Path file = Path.of(System.getProperty("basedir", System.getProperty("user.dir")), "target", "tpcds-queries", "tpcds", name + ".sql");
        try {
            return normalize(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + file + " (the build unpacks it from spark-sql_2.13's tests jar)", e);
        }
    }

    static String normalize(String spark) {
        String text = SPARK_INTERVAL.matcher(spark).replaceAll("INTERVAL '$1' DAY").replace('`', '"');
        text = ALIAS_AT.matcher(text).replaceAll(") \"at\",");
        text = OLD_REVIEW_DATE.matcher(text).replaceAll("c_last_review_date_sk").strip();
        return text.endsWith(";") ? text.substring(0, text.length() - 1) : text;
    }
}
