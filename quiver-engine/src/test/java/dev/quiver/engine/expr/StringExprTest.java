package dev.quiver.engine.expr;

import dev.quiver.engine.expr.function.ScalarFunction;
import static dev.quiver.engine.expr.ExprTesting.col;
import static dev.quiver.engine.expr.ExprTesting.eval;
import static dev.quiver.engine.expr.ExprTesting.evalColumn;
import static dev.quiver.engine.expr.ExprTesting.lit;
import static dev.quiver.engine.expr.ExprTesting.row;
import static dev.quiver.engine.expr.ExprTesting.schema;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class StringExprTest {
    private static final List<Object> WORDS = Arrays.asList("hello", "", null, "héllo wörld", "  padded  ", "PROMO BRUSHED", "a%b", "x_y");

    private static List<Object> like(TestingContext testing, String pattern) {
        return evalColumn(testing.allocator(), QuiverTypes.UTF8, WORDS, c -> ExprTesting.like(c, pattern, Optional.empty(), false));
    }

    private static List<Object> expectedLike(String regex) {
        return WORDS.stream().map(w -> w == null ? null : (Object) ((String) w).matches(regex)).toList();
    }

    @Test
    void likePatterns() {
        try (TestingContext testing = new TestingContext()) {
            assertThat(like(testing, "hello")).isEqualTo(expectedLike("hello"));
            assertThat(like(testing, "PROMO%")).isEqualTo(expectedLike("PROMO.*"));
            assertThat(like(testing, "%BRUSHED")).isEqualTo(expectedLike(".*BRUSHED"));
            assertThat(like(testing, "%ll%")).isEqualTo(expectedLike(".*ll.*"));
            assertThat(like(testing, "%")).isEqualTo(expectedLike("(?s).*"));
            assertThat(like(testing, "h_llo%")).isEqualTo(expectedLike("h.llo.*"));
            assertThat(like(testing, "%o%w_rld")).isEqualTo(expectedLike(".*o.*w.rld"));
            assertThat(like(testing, "_")).isEqualTo(expectedLike("."));
            assertThat(like(testing, "%e%l%o")).isEqualTo(expectedLike(".*e.*l.*o"));
            assertThat(like(testing, "")).isEqualTo(expectedLike(""));
            assertThat(evalColumn(testing.allocator(), QuiverTypes.UTF8, WORDS, c -> ExprTesting.like(c, "a!%b", Optional.of('!'), false)))
                    .isEqualTo(expectedLike("a%b"));
            assertThat(evalColumn(testing.allocator(), QuiverTypes.UTF8, WORDS, c -> ExprTesting.like(c, "%!_%", Optional.of('!'), true)))
                    .isEqualTo(WORDS.stream().map(w -> w == null ? null : (Object) !((String) w).contains("_")).toList());
        }
    }

    @Test
    void randomPatternsMatchLikeRegex() {
        java.util.Random random = new java.util.Random(9);
        String[] pieces = {"a", "b", "é", "%", "_"};
        List<Object> texts = new java.util.ArrayList<>();
        for (int i = 0; i < 200; i++) {
            StringBuilder text = new StringBuilder();
            for (int k = random.nextInt(7); k > 0; k--) {
                text.append(pieces[random.nextInt(3)]);
            }
            texts.add(text.toString());
        }
        try (TestingContext testing = new TestingContext()) {
            for (int p = 0; p < 150; p++) {
                StringBuilder pattern = new StringBuilder();
                StringBuilder regex = new StringBuilder();
                for (int k = random.nextInt(6); k > 0; k--) {
                    String piece = pieces[random.nextInt(pieces.length)];
                    pattern.append(piece);
                    regex.append(piece.equals("%") ? ".*" : piece.equals("_") ? "." : java.util.regex.Pattern.quote(piece));
                }
                java.util.regex.Pattern compiled = java.util.regex.Pattern.compile(regex.toString(), java.util.regex.Pattern.DOTALL);
                List<Object> actual = evalColumn(testing.allocator(), QuiverTypes.UTF8, texts, c -> ExprTesting.like(c, pattern.toString(), Optional.empty(), false));
                for (int i = 0; i < texts.size(); i++) {
                    assertThat(actual.get(i)).as("'%s' LIKE '%s'", texts.get(i), pattern).isEqualTo(compiled.matcher((String) texts.get(i)).matches());
                }
            }
        }
    }

    @Test
    void substringEdgeCases() {
        Schema schema = schema(QuiverTypes.UTF8);
        List<List<Object>> rows = List.of(row("hello"), row("héllo"), row(""), row((Object) null));
        try (TestingContext testing = new TestingContext()) {
            assertThat(eval(testing.allocator(), substring(schema, 2, 3), schema, rows)).containsExactly("ell", "éll", "", null);
            assertThat(eval(testing.allocator(), substring(schema, 0, 3), schema, rows)).containsExactly("he", "hé", "", null);
            // as DuckDB: a negative start counts from the end
            assertThat(eval(testing.allocator(), substring(schema, -5, 3), schema, rows)).containsExactly("hel", "hél", "", null);
            assertThat(eval(testing.allocator(), substring(schema, 4, 100), schema, rows)).containsExactly("lo", "lo", "", null);
            assertThat(eval(testing.allocator(), substring(schema, 6, 1), schema, rows)).containsExactly("", "", "", null);
            assertThat(eval(testing.allocator(), substring(schema, 1, 0), schema, rows)).containsExactly("", "", "", null);
            assertThat(eval(testing.allocator(), new ScalarFunctionExpr(ExprTesting.function("substring"), List.of(col(schema, 0), lit(3, QuiverTypes.INT32)),
                    QuiverTypes.UTF8), schema, rows)).containsExactly("llo", "llo", "", null);
        }
    }

    private static ScalarFunctionExpr substring(Schema schema, int start, int length) {
        return new ScalarFunctionExpr(ExprTesting.function("substring"), List.of(col(schema, 0), lit(start, QuiverTypes.INT32), lit(length, QuiverTypes.INT32)),
                QuiverTypes.UTF8);
    }

    @Test
    void caseTrimLengthConcat() {
        Schema schema = schema(QuiverTypes.UTF8, QuiverTypes.UTF8);
        List<List<Object>> rows = List.of(row("  Mixed Case ", "x"), row("héllo", null), row("", "y"));
        try (TestingContext testing = new TestingContext()) {
            assertThat(eval(testing.allocator(), fn(ExprTesting.function("upper"), QuiverTypes.UTF8, col(schema, 0)), schema, rows))
                    .containsExactly("  MIXED CASE ", "HÉLLO", "");
            assertThat(eval(testing.allocator(), fn(ExprTesting.function("lower"), QuiverTypes.UTF8, col(schema, 0)), schema, rows))
                    .containsExactly("  mixed case ", "héllo", "");
            assertThat(eval(testing.allocator(), fn(ExprTesting.function("btrim"), QuiverTypes.UTF8, col(schema, 0)), schema, rows))
                    .containsExactly("Mixed Case", "héllo", "");
            assertThat(eval(testing.allocator(), fn(ExprTesting.function("length"), QuiverTypes.INT64, col(schema, 0)), schema, rows))
                    .containsExactly(13L, 5L, 0L);
            assertThat(eval(testing.allocator(), fn(ExprTesting.function("||"), QuiverTypes.UTF8, col(schema, 0), lit("-", QuiverTypes.UTF8), col(schema, 1)), schema, rows))
                    .containsExactly("  Mixed Case -x", null, "-y");
            assertThat(eval(testing.allocator(), fn(ExprTesting.function("coalesce"), QuiverTypes.UTF8, col(schema, 1), lit("none", QuiverTypes.UTF8)), schema, rows))
                    .containsExactly("x", "none", "y");
        }
    }

    static ScalarFunctionExpr fn(ScalarFunction function, org.apache.arrow.vector.types.pojo.ArrowType type, PhysicalExpr... args) {
        return new ScalarFunctionExpr(function, List.of(args), type);
    }

    @Test
    void inLists() {
        try (TestingContext testing = new TestingContext()) {
            List<Object> words = Arrays.asList("MAIL", "SHIP", null, "AIR");
            assertThat(evalColumn(testing.allocator(), QuiverTypes.UTF8, words, c -> new InListExpr(c, List.of("MAIL", "SHIP"), false)))
                    .containsExactly(true, true, null, false);
            assertThat(evalColumn(testing.allocator(), QuiverTypes.UTF8, words, c -> new InListExpr(c, List.of("MAIL", "SHIP"), true)))
                    .containsExactly(false, false, null, true);
            assertThat(evalColumn(testing.allocator(), QuiverTypes.UTF8, words, c -> new InListExpr(c, Arrays.asList("MAIL", null), false)))
                    .containsExactly(true, null, null, null);
            assertThat(evalColumn(testing.allocator(), QuiverTypes.UTF8, words, c -> new InListExpr(c, Arrays.asList("MAIL", null), true)))
                    .containsExactly(false, null, null, null);
            List<Object> many = new java.util.ArrayList<>();
            for (int k = 0; k < 40; k++) {
                many.add("v" + k);
            }
            assertThat(evalColumn(testing.allocator(), QuiverTypes.UTF8, Arrays.asList("v7", "v39", "v40", "", null, "v"),
                    c -> new InListExpr(c, many, false)))
                    .containsExactly(true, true, false, false, null, false);
            List<Object> sizes = Arrays.asList(49, 14, 23, 45, 19, 3, 36, 9, 1, null);
            List<Object> in = List.of(49, 14, 23, 45, 19, 3, 36, 9, 50, 60);
            assertThat(evalColumn(testing.allocator(), QuiverTypes.INT32, sizes, c -> new InListExpr(c, in, false)))
                    .containsExactly(true, true, true, true, true, true, true, true, false, null);
            assertThat(evalColumn(testing.allocator(), QuiverTypes.decimal(10, 2), Arrays.asList(new java.math.BigDecimal("0.05"), new java.math.BigDecimal("0.10")),
                    c -> new InListExpr(c, List.of(new java.math.BigDecimal("0.050"), new java.math.BigDecimal("0.055")), false)))
                    .containsExactly(true, false);
            assertThat(evalColumn(testing.allocator(), QuiverTypes.FLOAT64, Arrays.asList(1.5, 2.0), c -> new InListExpr(c, List.of(1.5), false)))
                    .containsExactly(true, false);
        }
    }
}
