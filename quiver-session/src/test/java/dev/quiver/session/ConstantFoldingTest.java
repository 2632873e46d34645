package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.function.ArgType;
import dev.quiver.engine.expr.function.FunctionRegistry;
import dev.quiver.engine.expr.function.Parameter;
import dev.quiver.engine.expr.function.ScalarFunction;
import dev.quiver.engine.expr.function.Signature;
import dev.quiver.engine.expr.function.Volatility;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The differential fold test: every function of the registry (so a new function cannot escape
 * it), in every SQL form it has, is called once on constants — which the planner folds through
 * the engine's kernels — and once on the columns of a one-row table holding the same values. Both
 * must give the same value, or fail with the same error code.
 */
class ConstantFoldingTest {
    private static final Pattern HOLE = Pattern.compile("'?\\{(\\d+)}'?");

    /** A value as a typed SQL constant and as a column of the one-row table. */
    private record Sample(String column, ArrowType type, Object value, String literal) {}

    private static final Map<ArgType, List<Sample>> SAMPLES = new LinkedHashMap<>();
    private static QuerySession session;

    @BeforeAll
    static void open() {
        List<Sample> strings = List.of(text("s1", "abc"), text("s2", ""), text("s3", "Straße 😀"), text("s4", "a,b"), text("s5", "("),
                text("s6", "%_x"), new Sample("s0", QuiverTypes.UTF8, null, "CAST(NULL AS VARCHAR)"));
        List<Sample> integers = List.of(
                new Sample("i1", QuiverTypes.INT32, 0, "CAST(0 AS INTEGER)"),
                new Sample("i2", QuiverTypes.INT32, 3, "CAST(3 AS INTEGER)"),
                new Sample("i3", QuiverTypes.INT32, -2, "CAST(-2 AS INTEGER)"),
                new Sample("i4", QuiverTypes.INT32, Integer.MAX_VALUE, "CAST(2147483647 AS INTEGER)"),
                new Sample("l1", QuiverTypes.INT64, Long.MAX_VALUE, "CAST(9223372036854775807 AS BIGINT)"),
                new Sample("l2", QuiverTypes.INT64, -5L, "CAST(-5 AS BIGINT)"),
                new Sample("i0", QuiverTypes.INT32, null, "CAST(NULL AS INTEGER)"));
        ArrowType money = QuiverTypes.decimal(10, 2);
        List<Sample> numbers = new ArrayList<>(List.of(
                new Sample("m1", money, new BigDecimal("2.50"), "CAST(2.50 AS DECIMAL(10, 2))"),
                new Sample("m2", money, new BigDecimal("-1.25"), "CAST(-1.25 AS DECIMAL(10, 2))"),
                new Sample("m3", money, new BigDecimal("99999999.99"), "CAST(99999999.99 AS DECIMAL(10, 2))"),
                new Sample("d1", QuiverTypes.FLOAT64, 1.5, "CAST(1.5 AS DOUBLE)"),
                new Sample("d2", QuiverTypes.FLOAT64, -0.0, "CAST('-0.0' AS DOUBLE)"),
                new Sample("d3", QuiverTypes.FLOAT64, Double.NaN, "CAST('NaN' AS DOUBLE)"),
                new Sample("d4", QuiverTypes.FLOAT64, Double.POSITIVE_INFINITY, "CAST('Infinity' AS DOUBLE)"),
                new Sample("d5", QuiverTypes.FLOAT64, 1e308, "CAST(1e308 AS DOUBLE)"),
                new Sample("m0", money, null, "CAST(NULL AS DECIMAL(10, 2))")));
        numbers.addAll(integers);
        List<Sample> booleans = List.of(new Sample("b1", QuiverTypes.BOOLEAN, true, "TRUE"), new Sample("b2", QuiverTypes.BOOLEAN, false, "FALSE"),
                new Sample("b0", QuiverTypes.BOOLEAN, null, "CAST(NULL AS BOOLEAN)"));
        List<Sample> dates = List.of(new Sample("t1", QuiverTypes.DATE32, (int) LocalDate.parse("2024-02-29").toEpochDay(), "DATE '2024-02-29'"),
                new Sample("t0", QuiverTypes.DATE32, null, "CAST(NULL AS DATE)"));
        List<Sample> timestamps = List.of(new Sample("u1", QuiverTypes.TIMESTAMP, 1_704_164_645_500_000L, "TIMESTAMP '2024-01-02 03:04:05.5'"),
                new Sample("u0", QuiverTypes.TIMESTAMP, null, "CAST(NULL AS TIMESTAMP)"));
        SAMPLES.put(ArgType.STRING, strings);
        SAMPLES.put(ArgType.INTEGER, integers);
        SAMPLES.put(ArgType.NUMERIC, numbers);
        SAMPLES.put(ArgType.BOOLEAN, booleans);
        SAMPLES.put(ArgType.DATE, dates);
        SAMPLES.put(ArgType.TIMESTAMP, timestamps);
        List<Sample> datetimes = new ArrayList<>(dates);
        datetimes.addAll(timestamps);
        SAMPLES.put(ArgType.DATETIME, datetimes);
        SAMPLES.put(ArgType.ANY, List.of(strings.get(0), integers.get(1), numbers.get(0), numbers.get(3), booleans.get(0), dates.get(0),
                strings.get(6)));

        Map<String, Sample> columns = new LinkedHashMap<>();
        SAMPLES.values().forEach(samples -> samples.forEach(s -> columns.put(s.column(), s)));
        List<Field> fields = new ArrayList<>();
        List<Object> row = new ArrayList<>();
        columns.values().forEach(s -> {
            fields.add(QuiverTypes.field(s.column(), s.type(), true));
            row.add(s.value());
        });
        MemoryCatalog catalog = new MemoryCatalog().add("one", new Schema(fields), List.of(row));
        session = QuerySession.builder().catalog(catalog).build();
    }

    @AfterAll
    static void close() {
        session.close();
    }

    private static Sample text(String column, String value) {
        return new Sample(column, QuiverTypes.UTF8, value, "CAST('" + value + "' AS VARCHAR)");
    }

    @Test
    void everyFunctionFoldsToWhatItComputesOnColumns() {
        List<String> mismatches = new ArrayList<>();
        int calls = 0;
        for (ScalarFunction function : FunctionRegistry.builtins().functions()) {
            if (function.volatility() != Volatility.IMMUTABLE) {
                // random(): a new value per call; now(): one value per query, so two queries differ. Neither is folded.
                continue;
            }
            for (Signature signature : function.signatures()) {
                if (takesNested(signature)) {
                    // no list or map constants to fold: SQL has no list literals the engine computes (docs/parquet.md)
                    continue;
                }
                for (String form : forms(function, signature)) {
                    int arguments = holes(form);
                    for (List<Sample> args : combinations(signature, arguments)) {
                        calls++;
                        String constants = fill(form, args, signature, true);
                        String columns = fill(form, args, signature, false);
                        Outcome folded = run("select " + constants);
                        Outcome computed = run("select " + columns + " from one");
                        if (!folded.equals(computed)) {
                            mismatches.add(constants + " = " + folded + "  but  " + columns + " = " + computed);
                        }
                    }
                }
            }
        }
        assertThat(calls).isGreaterThan(FunctionRegistry.builtins().functions().size());
        assertThat(mismatches).isEmpty();
    }

    /** The issue's examples: each folds to what the engine computes, or is the same error. */
    @ParameterizedTest
    @ValueSource(strings = {
        "9223372036854775807 + 1 | l1 + 1",
        "upper('Straße 😀') | upper(s3)",
        "cast(2.5e0 as integer) | cast(d1 + 1 as integer)",
        "cast('1.5' as integer) | cast(cast(d1 as varchar) as integer)",
        "cast('(' as integer) | cast(s5 as integer)",
        "1 / 0 | i2 / i1",
    })
    void issueExamplesAgree(String pair) {
        String[] sides = pair.split(" \\| ");
        assertThat(run("select " + sides[0])).isEqualTo(run("select " + sides[1] + " from one"));
    }

    /** A constant is folded by the engine (its value shows in the plan), not computed per row. */
    @Test
    void constantsFoldThroughTheEngine() {
        String plan = (String) session.executeScript("explain select upper('straße') as u, 9223372036854775806 + 1 as n").rows().get(0).get(0);
        assertThat(plan).contains("'STRAẞE' AS u").contains("9223372036854775807 AS n").doesNotContain("upper").doesNotContain("+");
    }

    private static boolean takesNested(Signature signature) {
        return signature.parameters().stream().anyMatch(p -> p.type() == ArgType.LIST || p.type() == ArgType.MAP);
    }

    /** The SQL forms of a call: each of the function's, and for a variadic function one more argument. */
    private static List<String> forms(ScalarFunction function, Signature signature) {
        List<String> forms = new ArrayList<>();
        for (String form : function.sqlForms()) {
            int holes = holes(form);
            if (holes >= signature.minArguments() && holes <= signature.maxArguments()) {
                forms.add(form);
            }
        }
        if (signature.variadic() && function.callableByName()) {
            List<String> holes = new ArrayList<>();
            for (int i = 0; i <= signature.minArguments(); i++) {
                holes.add("{" + i + "}");
            }
            forms.add(function.name() + "(" + String.join(", ", holes) + ")");
        }
        return forms;
    }

    private static int holes(String form) {
        int max = -1;
        Matcher hole = HOLE.matcher(form);
        while (hole.find()) {
            max = Math.max(max, Integer.parseInt(hole.group(1)));
        }
        return max + 1;
    }

    /** Argument lists that rotate through each parameter's samples. */
    private static List<List<Sample>> combinations(Signature signature, int arguments) {
        List<List<Sample>> choices = new ArrayList<>();
        int longest = 0;
        for (int i = 0; i < arguments; i++) {
            Parameter parameter = signature.parameter(i);
            List<Sample> samples = SAMPLES.get(parameter.type());
            if (parameter.constant()) {
                samples = samples.stream().filter(s -> s.value() != null).toList();
            }
            choices.add(samples);
            longest = Math.max(longest, samples.size());
        }
        List<List<Sample>> combinations = new ArrayList<>();
        // five argument lists: each parameter meets five of its samples, and calls stay few enough to run in seconds
        for (int t = 0; t < Math.max(Math.min(longest, 5), 1); t++) {
            List<Sample> args = new ArrayList<>();
            for (int i = 0; i < arguments; i++) {
                List<Sample> samples = choices.get(i);
                args.add(samples.get((t + 2 * i) % samples.size()));
            }
            combinations.add(args);
        }
        return combinations;
    }

    /** The form with each hole a constant or a column; a hole in quotes (an interval count) takes the bare value. */
    private static String fill(String form, List<Sample> args, Signature signature, boolean constants) {
        Matcher hole = HOLE.matcher(form);
        StringBuilder sql = new StringBuilder();
        while (hole.find()) {
            int index = Integer.parseInt(hole.group(1));
            Sample sample = args.get(index);
            String text;
            if (hole.group().startsWith("'")) {
                text = "'" + sample.value() + "'";
            } else if (constants || signature.parameter(index).constant()) {
                text = sample.literal();
            } else {
                text = sample.column();
            }
            hole.appendReplacement(sql, Matcher.quoteReplacement(text));
        }
        hole.appendTail(sql);
        return sql.toString();
    }

    /** What a query gave: its rows, or the code it failed with. */
    private record Outcome(List<List<Object>> rows, ErrorCode error) {
        @Override
        public String toString() {
            return error != null ? error.toString() : rows.toString();
        }
    }

    private static Outcome run(String sql) {
        try {
            return new Outcome(session.executeScript(sql).rows(), null);
        } catch (QuiverException e) {
            return new Outcome(null, e.errorCode());
        }
    }
}
