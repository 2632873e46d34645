package dev.quiver.session.sqllogic;

import dev.quiver.session.sqllogic.FuzzSchema.FuzzColumn;
import dev.quiver.session.sqllogic.FuzzSchema.FuzzTable;
import dev.quiver.session.sqllogic.FuzzSchema.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;

/**
 * Generates one random but valid query from a seed (the same seed, the same query), SQLancer style,
 * over {@link FuzzSchema}: joins of every type on key columns, filters of comparisons, NULL tests,
 * IN lists, BETWEEN, LIKE, EXISTS / IN / scalar sub-queries, searched and simple CASE, COALESCE,
 * NULLIF, casts, arithmetic and division, GROUP BY with aggregates (DISTINCT too) and HAVING,
 * window functions, DISTINCT, set operations, and ORDER BY all columns with LIMIT.
 *
 * <p>It does not generate what the two engines define differently, each a dialect decision in
 * docs/sql.md ("Where DuckDB and PostgreSQL differ"): a zero divisor (DuckDB 2.0's {@code /} gives
 * inf or NaN, Quiver fails with DIVISION_BY_ZERO or gives NULL: divisors are non-zero constants),
 * a division of decimals (DuckDB's quotient is a DOUBLE), {@code upper} (of ß), casts of doubles
 * (to integers, decimals and text DuckDB rounds and prints its own way). Nor what is not defined:
 * ROW_NUMBER, LAG/LEAD, FIRST_VALUE and ROWS frames (they depend on the order of ties under a
 * random ORDER BY), sums of the edge table's limit values (DuckDB sums into 128 bits, Quiver's
 * BIGINT sum overflows with an error). Which of 0.0 and -0.0 a group shows is not defined either;
 * {@link SqlFuzzTest} compares them as equal.
 */
final class QueryFuzzer {
    private static final String[] COMPARISONS = {"=", "<>", "<", "<=", ">", ">="};
    private static final String[] JOINS = {"JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN"};
    private static final String[] SET_OPERATIONS = {"UNION", "UNION ALL", "INTERSECT", "EXCEPT"};
    private static final String[] WORDS = {"a", "x", "apple", "ten", "ALGERIA", "Brand#1", "", "b%", "%e%", "_a%"};

    private final Random random;
    private int aliases;

    QueryFuzzer(long seed) {
        this.random = new Random(seed);
    }

    /** A column visible in a query: how to refer to it, its kind, and whether arithmetic on it is safe. */
    private record Ref(String sql, Kind kind, boolean arithmetic) {}

    /** A generated SELECT: its text and the kinds of its columns. */
    private record Select(String sql, List<Kind> kinds) {}

    /** The next query. */
    String query() {
        Select first = select(2, List.of());
        String sql = first.sql();
        if (chance(0.15)) {
            Select second = select(1, first.kinds());
            sql = "(" + sql + ") " + pick(SET_OPERATIONS) + " (" + second.sql() + ")";
        }
        if (chance(0.3)) {
            String all = java.util.stream.IntStream.rangeClosed(1, first.kinds().size()).mapToObj(Integer::toString).collect(Collectors.joining(", "));
            sql = "SELECT * FROM (" + sql + ") q ORDER BY " + all + " LIMIT " + (1 + random.nextInt(8));
        }
        return sql;
    }

    /** Whether the query's rows come in a defined order (ORDER BY every column). */
    static boolean isOrdered(String sql) {
        return sql.startsWith("SELECT * FROM (") && sql.contains(") q ORDER BY ");
    }

    /** A SELECT; with {@code kinds} given, one whose columns are of those kinds (the second input of a set operation). */
    private Select select(int depth, List<Kind> kinds) {
        List<Ref> scope = new ArrayList<>();
        String from = from(depth, scope);
        boolean grouped = kinds.isEmpty() && chance(0.35);
        List<String> items = new ArrayList<>();
        List<Kind> out = new ArrayList<>();
        String groupBy = "";
        String having = "";
        if (grouped) {
            List<Ref> keys = new ArrayList<>();
            for (int n = random.nextInt(3); n > 0; n--) {
                keys.add(pick(scope));
            }
            for (Ref key : keys) {
                items.add(key.sql());
                out.add(key.kind());
            }
            for (int n = 1 + random.nextInt(3); n > 0; n--) {
                Kind kind = aggregateKind();
                items.add(aggregate(scope, kind));
                out.add(kind);
            }
            if (!keys.isEmpty()) {
                groupBy = " GROUP BY " + keys.stream().map(Ref::sql).collect(Collectors.joining(", "));
            }
            if (chance(0.3)) {
                having = " HAVING " + aggregate(scope, Kind.BIGINT) + " " + pick(COMPARISONS) + " " + random.nextInt(5);
            }
        } else {
            List<Kind> wanted = kinds.isEmpty() ? randomKinds(1 + random.nextInt(4)) : kinds;
            for (Kind kind : wanted) {
                items.add(expression(scope, kind, depth));
                out.add(kind);
            }
            if (kinds.isEmpty() && chance(0.25)) {
                Ref window = window(scope);
                items.add(window.sql());
                out.add(window.kind());
            }
        }
        List<String> named = new ArrayList<>();
        for (int c = 0; c < items.size(); c++) {
            named.add(items.get(c) + " AS c" + c);
        }
        String distinct = !grouped && chance(0.15) ? "DISTINCT " : "";
        String where = chance(0.6) ? " WHERE " + predicate(scope, depth) : "";
        return new Select("SELECT " + distinct + String.join(", ", named) + " FROM " + from + where + groupBy + having, out);
    }

    private List<Kind> randomKinds(int count) {
        List<Kind> kinds = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            kinds.add(pick(Kind.values()));
        }
        return kinds;
    }

    private Kind aggregateKind() {
        return pick(new Kind[] {Kind.BIGINT, Kind.BIGINT, Kind.DECIMAL, Kind.DOUBLE, Kind.TEXT, Kind.DATE, Kind.INTEGER});
    }

    /** One to three tables (or a derived table), joined on key columns; adds their columns to {@code scope}. */
    private String from(int depth, List<Ref> scope) {
        FuzzTable first = pick(FuzzSchema.TABLES);
        StringBuilder from = new StringBuilder(table(first, scope));
        int joins = random.nextInt(depth > 1 ? 3 : 2);
        for (int j = 0; j < joins; j++) {
            FuzzTable next = pick(FuzzSchema.TABLES);
            List<Ref> left = new ArrayList<>(scope);
            String alias = "t" + aliases++;
            List<Ref> right = refs(next, alias);
            scope.addAll(right);
            if (next.small() && chance(0.1)) {
                from.append(" CROSS JOIN ").append(next.name()).append(' ').append(alias);
                continue;
            }
            String condition = joinCondition(left, next, alias);
            if (chance(0.3)) {
                condition += " AND " + predicate(scope, 0);
            }
            from.append(' ').append(pick(JOINS)).append(' ').append(next.name()).append(' ').append(alias).append(" ON ").append(condition);
        }
        return from.toString();
    }

    private String table(FuzzTable table, List<Ref> scope) {
        String alias = "t" + aliases++;
        scope.addAll(refs(table, alias));
        return table.name() + " " + alias;
    }

    private static List<Ref> refs(FuzzTable table, String alias) {
        return table.columns().stream().map(c -> new Ref(alias + "." + c.name(), c.kind(), c.arithmetic())).toList();
    }

    /** {@code left_key = right_key} for a key of the new table and a visible column it compares with. */
    private String joinCondition(List<Ref> left, FuzzTable right, String alias) {
        FuzzColumn key = right.column(pick(right.joinKeys()));
        List<Ref> partners = left.stream().filter(r -> r.kind().comparesWith(key.kind()) && r.kind() != Kind.DOUBLE).toList();
        if (partners.isEmpty()) {
            return "TRUE";
        }
        return pick(partners).sql() + " = " + alias + "." + key.name();
    }

    private String aggregate(List<Ref> scope, Kind kind) {
        List<Ref> numeric = scope.stream().filter(r -> r.kind().isNumeric() && r.arithmetic()).toList();
        return switch (kind) {
            case BIGINT -> switch (random.nextInt(3)) {
                case 0 -> "count(*)";
                case 1 -> "count(" + pick(scope).sql() + ")";
                default -> "count(DISTINCT " + pick(scope).sql() + ")";
            };
            case DECIMAL, INTEGER -> numeric.isEmpty() ? "count(*)" : pick(new String[] {"sum(", "min(", "sum(DISTINCT "}) + pick(numeric).sql() + ")";
            case DOUBLE -> numeric.isEmpty() ? "count(*)" : (chance(0.8) ? "avg(" : "avg(DISTINCT ") + pick(numeric).sql() + ")";
            default -> {
                List<Ref> ofKind = scope.stream().filter(r -> r.kind() == kind).toList();
                String argument = ofKind.isEmpty() ? literal(kind) : pick(ofKind).sql();
                yield (chance(0.5) ? "min(" : "max(") + argument + ")";
            }
        };
    }

    /** An expression of {@code kind} over {@code scope}, nested at most {@code depth} deep. */
    private String expression(List<Ref> scope, Kind kind, int depth) {
        List<Ref> columns = scope.stream().filter(r -> r.kind() == kind).toList();
        if (depth <= 0 || chance(0.4)) {
            return !columns.isEmpty() && chance(0.75) ? pick(columns).sql() : literal(kind);
        }
        return switch (random.nextInt(5)) {
            case 0 -> "CASE WHEN " + predicate(scope, depth - 1) + " THEN " + expression(scope, kind, depth - 1) + " ELSE "
                    + expression(scope, kind, depth - 1) + " END";
            case 4 -> simpleCase(scope, kind, depth);
            case 1 -> "COALESCE(" + expression(scope, kind, depth - 1) + ", " + expression(scope, kind, depth - 1) + ")";
            default -> compound(scope, kind, depth);
        };
    }

    private String compound(List<Ref> scope, Kind kind, int depth) {
        List<Ref> safe = scope.stream().filter(r -> r.kind() == kind && r.arithmetic()).toList();
        String operand = safe.isEmpty() ? literal(kind) : pick(safe).sql();
        return switch (kind) {
            case INTEGER, BIGINT -> switch (random.nextInt(5)) {
                case 0 -> "(" + operand + " + " + arithmetic(scope, kind) + ")";
                case 1 -> "(" + operand + " - " + arithmetic(scope, kind) + ")";
                case 2 -> "(" + operand + " * " + (random.nextInt(7) - 3) + ")";
                case 3 -> switch (random.nextInt(3)) {
                    case 0 -> "abs(" + operand + ")";
                    case 1 -> "divide(" + operand + ", " + nonZero() + ")";
                    default -> cast(scope, kind);
                };
                default -> "NULLIF(" + operand + ", " + random.nextInt(20) + ")";
            };
            case DECIMAL -> switch (random.nextInt(4)) {
                case 0 -> "(" + operand + " + " + arithmetic(scope, kind) + ")";
                case 1 -> "(" + operand + " * " + (random.nextInt(5) - 2) + ")";
                case 2 -> "CAST(" + arithmetic(scope, Kind.INTEGER) + " AS DECIMAL(12,2))";
                default -> "(" + operand + " - 1.25)";
            };
            case DOUBLE -> switch (random.nextInt(3)) {
                case 0 -> "CAST(" + arithmetic(scope, pick(new Kind[] {Kind.INTEGER, Kind.DECIMAL})) + " AS DOUBLE)";
                case 1 -> "(" + arithmetic(scope, pick(new Kind[] {Kind.INTEGER, Kind.BIGINT})) + " / " + nonZero() + ")";
                default -> "(" + operand + " * 0.5e0)";
            };
            case TEXT -> switch (random.nextInt(4)) {
                case 3 -> cast(scope, kind);
                case 0 -> expression(scope, Kind.TEXT, 0) + " || " + expression(scope, Kind.TEXT, 0);
                case 1 -> "substring(" + expression(scope, Kind.TEXT, 0) + ", " + (1 + random.nextInt(3)) + ", " + random.nextInt(4) + ")";
                default -> "lower(" + expression(scope, Kind.TEXT, 0) + ")";
            };
            case DATE, BOOLEAN -> kind == Kind.BOOLEAN ? "(" + predicate(scope, depth - 1) + ")" : expression(scope, kind, 0);
        };
    }

    /** {@code CASE x WHEN v THEN .. [WHEN ..] ELSE .. END} over a column of any kind. */
    private String simpleCase(List<Ref> scope, Kind kind, int depth) {
        Ref subject = pick(scope);
        StringBuilder sql = new StringBuilder("CASE ").append(subject.sql());
        for (int n = 1 + random.nextInt(2); n > 0; n--) {
            sql.append(" WHEN ").append(literal(subject.kind())).append(" THEN ").append(expression(scope, kind, depth - 1));
        }
        return sql.append(" ELSE ").append(expression(scope, kind, depth - 1)).append(" END").toString();
    }

    /**
     * A cast to {@code kind} from a kind both engines convert alike: integers widened or narrowed
     * (a value out of range is an error on both), integers, decimals, dates and booleans to text.
     */
    private String cast(List<Ref> scope, Kind kind) {
        Kind from = switch (kind) {
            case INTEGER -> Kind.BIGINT;
            case BIGINT -> Kind.INTEGER;
            default -> pick(new Kind[] {Kind.INTEGER, Kind.BIGINT, Kind.DECIMAL, Kind.DATE, Kind.BOOLEAN});
        };
        List<Ref> columns = scope.stream().filter(r -> r.kind() == from).toList();
        String operand = !columns.isEmpty() && chance(0.7) ? pick(columns).sql() : literal(from);
        return "CAST(" + operand + " AS " + sqlType(kind) + ")";
    }

    /**
     * A window function whose value does not depend on how ties are ordered: ranks and
     * distributions, and aggregates over the whole partition or over the default RANGE frame
     * (which takes the current row's peers along). ROW_NUMBER, LAG, FIRST_VALUE and ROWS frames
     * would need an ORDER BY that is total, which random columns are not.
     */
    private Ref window(List<Ref> scope) {
        Ref partition = pick(scope);
        Ref order = pick(scope);
        String over = " OVER (" + (chance(0.7) ? "PARTITION BY " + partition.sql() : "");
        boolean ordered = chance(0.7);
        if (ordered) {
            over += (over.endsWith("(") ? "" : " ") + "ORDER BY " + order.sql() + (chance(0.3) ? " DESC" : "");
        }
        over += ")";
        List<Ref> numeric = scope.stream().filter(r -> r.kind().isNumeric() && r.arithmetic() && r.kind() != Kind.DOUBLE).toList();
        int choice = random.nextInt(ordered ? 8 : 4);
        return switch (choice) {
            case 0 -> new Ref("count(*)" + over, Kind.BIGINT, true);
            case 1 -> numeric.isEmpty() ? new Ref("count(" + partition.sql() + ")" + over, Kind.BIGINT, true)
                    : new Ref("sum(" + pick(numeric).sql() + ")" + over, Kind.DECIMAL, true);
            case 2 -> new Ref("min(" + order.sql() + ")" + over, order.kind(), true);
            case 3 -> new Ref("max(" + order.sql() + ")" + over, order.kind(), true);
            case 4 -> new Ref("rank()" + over, Kind.BIGINT, true);
            case 5 -> new Ref("dense_rank()" + over, Kind.BIGINT, true);
            case 6 -> new Ref("percent_rank()" + over, Kind.DOUBLE, true);
            default -> new Ref("cume_dist()" + over, Kind.DOUBLE, true);
        };
    }

    /** A safe operand for arithmetic of {@code kind}: a small column or a literal. */
    private String arithmetic(List<Ref> scope, Kind kind) {
        List<Ref> safe = scope.stream().filter(r -> r.kind() == kind && r.arithmetic()).toList();
        return !safe.isEmpty() && chance(0.6) ? pick(safe).sql() : literal(kind);
    }

    /** A boolean condition over {@code scope}. */
    private String predicate(List<Ref> scope, int depth) {
        int choice = random.nextInt(depth > 0 ? 10 : 6);
        Ref column = pick(scope);
        return switch (choice) {
            case 0, 1 -> comparison(scope, column);
            case 2 -> column.sql() + (chance(0.5) ? " IS NULL" : " IS NOT NULL");
            case 3 -> column.sql() + (chance(0.3) ? " NOT IN (" : " IN (") + literal(column.kind()) + ", " + literal(column.kind())
                    + (chance(0.2) ? ", NULL" : "") + ")";
            case 4 -> column.kind() == Kind.TEXT ? column.sql() + (chance(0.3) ? " NOT LIKE '" : " LIKE '") + pick(WORDS) + "'"
                    : column.sql() + " BETWEEN " + literal(column.kind()) + " AND " + literal(column.kind());
            case 5 -> column.kind() == Kind.BOOLEAN ? column.sql() : comparison(scope, column);
            case 6 -> "NOT (" + predicate(scope, depth - 1) + ")";
            case 7 -> "(" + predicate(scope, depth - 1) + (chance(0.5) ? " AND " : " OR ") + predicate(scope, depth - 1) + ")";
            default -> subquery(scope);
        };
    }

    private String comparison(List<Ref> scope, Ref column) {
        List<Ref> partners = scope.stream().filter(r -> r.kind().comparesWith(column.kind()) && r != column).toList();
        String other = !partners.isEmpty() && chance(0.4) ? pick(partners).sql() : literal(column.kind());
        return column.sql() + " " + pick(COMPARISONS) + " " + other;
    }

    /** EXISTS, IN or a scalar sub-query over another table, correlated on a key half of the time. */
    private String subquery(List<Ref> scope) {
        FuzzTable table = pick(FuzzSchema.TABLES);
        String alias = "s" + aliases++;
        FuzzColumn key = table.column(pick(table.joinKeys()));
        List<Ref> outer = scope.stream().filter(r -> r.kind().comparesWith(key.kind()) && r.kind() != Kind.DOUBLE).toList();
        if (outer.isEmpty()) {
            return "EXISTS (SELECT 1 FROM " + table.name() + " " + alias + ")";
        }
        Ref correlated = pick(outer);
        String filter = chance(0.5) ? " WHERE " + alias + "." + key.name() + " = " + correlated.sql() : "";
        return switch (random.nextInt(3)) {
            case 0 -> (chance(0.3) ? "NOT " : "") + "EXISTS (SELECT 1 FROM " + table.name() + " " + alias + filter + ")";
            case 1 -> correlated.sql() + (chance(0.3) ? " NOT IN" : " IN") + " (SELECT " + alias + "." + key.name() + " FROM " + table.name()
                    + " " + alias + (chance(0.5) ? " WHERE " + alias + "." + key.name() + " IS NOT NULL" : "") + ")";
            default -> correlated.sql() + " " + pick(COMPARISONS) + " (SELECT " + (chance(0.5) ? "max(" : "min(") + alias + "." + key.name()
                    + ") FROM " + table.name() + " " + alias + filter + ")";
        };
    }

    /** A divisor that is never zero (both engines fail, or differ, on a zero divisor). */
    private String nonZero() {
        int value = 1 + random.nextInt(9);
        return Integer.toString(chance(0.3) ? -value : value);
    }

    private String literal(Kind kind) {
        if (chance(0.05)) {
            return "CAST(NULL AS " + sqlType(kind) + ")";
        }
        return switch (kind) {
            case INTEGER -> Integer.toString(random.nextInt(60) - 5);
            case BIGINT -> "CAST(" + (random.nextInt(60) - 5) + " AS BIGINT)";
            case DECIMAL -> (random.nextInt(200) - 20) / 4 + "." + pick(new String[] {"00", "25", "5", "75"});
            case DOUBLE -> (random.nextInt(40) - 10) / 2.0 + "e0";
            case TEXT -> "'" + pick(WORDS) + "'";
            case DATE -> "DATE '" + pick(new String[] {"2024-01-01", "1970-01-01", "2000-02-29", "1995-06-17", "2024-02-29"}) + "'";
            case BOOLEAN -> chance(0.5) ? "TRUE" : "FALSE";
        };
    }

    private static String sqlType(Kind kind) {
        return switch (kind) {
            case INTEGER -> "INTEGER";
            case BIGINT -> "BIGINT";
            case DECIMAL -> "DECIMAL(10,2)";
            case DOUBLE -> "DOUBLE";
            case TEXT -> "VARCHAR";
            case DATE -> "DATE";
            case BOOLEAN -> "BOOLEAN";
        };
    }

    private boolean chance(double probability) {
        return random.nextDouble() < probability;
    }

    private <T> T pick(List<T> values) {
        return values.get(random.nextInt(values.size()));
    }

    private <T> T pick(T[] values) {
        return values[random.nextInt(values.length)];
    }
}
