package dev.quiver.sql.planner;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.SqlWindow;
import org.apache.calcite.sql.fun.SqlBetweenOperator;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlLikeOperator;
import org.apache.calcite.sql.fun.SqlTrimFunction;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * The name DuckDB gives an unaliased select item, from the parsed expression: {@code sum(l_quantity)},
 * {@code count_star()}, {@code (a + 1)}, {@code CAST(x AS INTEGER)}, {@code CASE  WHEN ((x > 1)) THEN ('a') ELSE NULL END}.
 * Operators print in parentheses with DuckDB's spelling ({@code !=}, {@code ~~} for LIKE),
 * function names in lower case, literals and user type names as written, and an identifier is
 * double-quoted where DuckDB would quote it (not a plain name, or one of its keywords). A shape
 * this class does not know is named by its SQL text as written.
 */
final class ExpressionNames {
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Map<SqlKind, String> INFIX = Map.ofEntries(
            Map.entry(SqlKind.PLUS, "+"), Map.entry(SqlKind.MINUS, "-"), Map.entry(SqlKind.TIMES, "*"),
            Map.entry(SqlKind.DIVIDE, "/"), Map.entry(SqlKind.MOD, "%"), Map.entry(SqlKind.EQUALS, "="),
            Map.entry(SqlKind.NOT_EQUALS, "!="), Map.entry(SqlKind.LESS_THAN, "<"), Map.entry(SqlKind.LESS_THAN_OR_EQUAL, "<="),
            Map.entry(SqlKind.GREATER_THAN, ">"), Map.entry(SqlKind.GREATER_THAN_OR_EQUAL, ">="),
            Map.entry(SqlKind.IS_DISTINCT_FROM, "IS DISTINCT FROM"), Map.entry(SqlKind.IS_NOT_DISTINCT_FROM, "IS NOT DISTINCT FROM"));
    /** The comparison whose negation an {@code ALL} sub-query becomes ({@code x > ALL(q)} is {@code NOT (x <= ANY(q))}). */
    private static final Map<SqlKind, String> NEGATED = Map.of(SqlKind.EQUALS, "!=", SqlKind.NOT_EQUALS, "=",
            SqlKind.LESS_THAN, ">=", SqlKind.LESS_THAN_OR_EQUAL, ">", SqlKind.GREATER_THAN, "<=", SqlKind.GREATER_THAN_OR_EQUAL, "<");
    private static final Map<SqlKind, String> IS_BOOLEAN = Map.of(SqlKind.IS_TRUE, "IS NOT DISTINCT FROM true",
            SqlKind.IS_NOT_TRUE, "IS DISTINCT FROM true", SqlKind.IS_FALSE, "IS NOT DISTINCT FROM false",
            SqlKind.IS_NOT_FALSE, "IS DISTINCT FROM false");

    private final SqlText text;
    private final QueryNames queries;

    ExpressionNames(SqlText text) {
        this.text = requireNonNull(text, "text is null");
        this.queries = new QueryNames(this);
    }

    /** The expression as DuckDB prints it. */
    String format(SqlNode node) {
        return format(node, false);
    }

    String format(SqlNode node, boolean inWindow) {
        if (node instanceof SqlIdentifier identifier) {
            return identifier(identifier);
        }
        if (node instanceof SqlLiteral literal) {
            return literal(literal);
        }
        if (node instanceof SqlCall call) {
            if (QueryNames.isQuery(call)) {
                return "(" + queries.format(call) + ")";
            }
            String formatted = call(call, inWindow);
            if (formatted != null) {
                return formatted;
            }
        }
        return asWritten(node);
    }

    /** The identifier's parts, each quoted where DuckDB would quote it. */
    static String identifier(SqlIdentifier identifier) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < identifier.names.size(); i++) {
            parts.add(identifier.isStar() && identifier.names.get(i).isEmpty() ? "*" : quoted(identifier.names.get(i)));
        }
        return String.join(".", parts);
    }

    static String quoted(String name) {
        if (PLAIN.matcher(name).matches() && !DuckDbSpelling.isKeyword(name)) {
            return name;
        }
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    /** The node's SQL text as the user wrote it (whitespace runs collapsed), or Calcite's rendering of a node it made up. */
    String asWritten(SqlNode node) {
        String written = text.of(node.getParserPosition());
        return written == null ? node.toString() : written.strip().replaceAll("\\s+", " ");
    }

    private String literal(SqlLiteral literal) {
        if (literal instanceof SqlNumericLiteral) {
            return asWritten(literal).replace(" ", "");
        }
        if (literal instanceof SqlCharStringLiteral string) {
            return "'" + string.getValueAs(String.class).replace("'", "''") + "'";
        }
        if (literal instanceof SqlUnknownLiteral typed) {
            return "CAST('" + typed.getValue().toString().replace("'", "''") + "' AS " + typedLiteralType(typed) + ")";
        }
        if (literal instanceof SqlIntervalLiteral interval) {
            return interval(interval);
        }
        return switch (literal.getTypeName()) {
            case NULL -> "NULL";
            case BOOLEAN -> String.valueOf(literal.booleanValue());
            default -> asWritten(literal);
        };
    }

    /** DATE '...' keeps the word as written (DuckDB resolves DATE as a type name); TIMESTAMP and TIME are keywords it spells in capitals. */
    private String typedLiteralType(SqlUnknownLiteral typed) {
        String tag = typed.tag.toUpperCase(Locale.ROOT);
        if (!tag.equals("DATE")) {
            return tag;
        }
        String written = text.of(typed.getParserPosition());
        return written == null ? "DATE" : written.strip().substring(0, 4);
    }

    /** {@code INTERVAL '3' MONTH} is {@code to_months(CAST(trunc(CAST('3' AS DOUBLE)) AS INTEGER))} in DuckDB. */
    private String interval(SqlIntervalLiteral interval) {
        SqlIntervalLiteral.IntervalValue value = interval.getValueAs(SqlIntervalLiteral.IntervalValue.class);
        String written = text.of(interval.getParserPosition());
        boolean quoted = written == null || written.contains("'");
        String number = (value.getSign() < 0 ? "-" : "") + value.getIntervalLiteral();
        String operand = quoted ? "'" + number + "'" : number;
        if (value.getIntervalQualifier().isSingleDatetimeField()) {
            String unit = value.getIntervalQualifier().getStartUnit().name();
            return switch (unit) {
                case "YEAR", "MONTH", "DAY" -> "to_" + unit.toLowerCase(Locale.ROOT) + "s(CAST(trunc(CAST(" + operand + " AS DOUBLE)) AS INTEGER))";
                case "HOUR", "MINUTE" -> "to_" + unit.toLowerCase(Locale.ROOT) + "s(CAST(trunc(CAST(" + operand + " AS DOUBLE)) AS BIGINT))";
                case "SECOND" -> "to_seconds(CAST(" + operand + " AS DOUBLE))";
                default -> asWritten(interval);
            };
        }
        return asWritten(interval);
    }

    /** The call's name, or null where the shape is not one DuckDB names in a known way. */
    private String call(SqlCall call, boolean inWindow) {
        SqlKind kind = call.getKind();
        List<SqlNode> operands = call.getOperandList();
        String infix = INFIX.get(kind);
        if (infix != null && call.getOperator().getSyntax() == SqlSyntax.BINARY && operands.size() == 2) {
            return "(" + format(operands.get(0)) + " " + infix + " " + format(operands.get(1)) + ")";
        }
        if (kind == SqlKind.OTHER && call.getOperator().getSyntax() == SqlSyntax.BINARY && operands.size() == 2) {
            // ||, and operators a function library adds
            return "(" + format(operands.get(0)) + " " + call.getOperator().getName() + " " + format(operands.get(1)) + ")";
        }
        return switch (kind) {
            case AND, OR -> "(" + flatten(call, kind).stream().map(this::format).collect(Collectors.joining(" " + kind.sql + " ")) + ")";
            case NOT -> "(NOT " + format(operands.get(0)) + ")";
            case MINUS_PREFIX -> operands.get(0) instanceof SqlNumericLiteral ? "-" + format(operands.get(0)) : "(-(" + format(operands.get(0)) + "))";
            case PLUS_PREFIX -> "(+(" + format(operands.get(0)) + "))";
            case IS_NULL -> "(" + format(operands.get(0)) + " IS NULL)";
            case IS_NOT_NULL -> "(" + format(operands.get(0)) + " IS NOT NULL)";
            case IS_TRUE, IS_NOT_TRUE, IS_FALSE, IS_NOT_FALSE -> "(CAST(" + format(operands.get(0)) + " AS BOOLEAN) " + IS_BOOLEAN.get(kind) + ")";
            case BETWEEN -> between(call);
            case IN, NOT_IN -> in(call, kind == SqlKind.NOT_IN);
            case SOME, ALL -> quantified(call);
            case EXISTS -> "EXISTS(" + queries.format(operands.get(0)) + ")";
            case LIKE, SIMILAR -> like(call);
            case CASE -> caseWhen((SqlCase) call);
            case CAST -> "CAST(" + format(operands.get(0)) + " AS " + type((SqlDataTypeSpec) operands.get(1)) + ")";
            case EXTRACT -> "date_part('" + DuckDbSpelling.datePartUnit(asWritten(operands.get(0))) + "', " + format(operands.get(1)) + ")";
            case FILTER -> format(operands.get(0), inWindow) + " FILTER (WHERE " + format(operands.get(1)) + ")";
            case OVER -> operands.get(1) instanceof SqlWindow window
                    ? format(operands.get(0), true) + " OVER (" + window(window) + ")" : null;
            case POSITION -> operands.size() == 2 ? "\"position\"(" + format(operands.get(1)) + ", " + format(operands.get(0)) + ")" : null;
            case TRIM -> trim(call);
            case ROW -> "\"row\"(" + list(operands) + ")";
            case ARRAY_VALUE_CONSTRUCTOR -> "list_value(" + list(operands) + ")";
            case OTHER, OTHER_FUNCTION, COALESCE, NULLIF, COUNT, SUM, AVG, MIN, MAX, FLOOR, CEIL -> function(call, inWindow);
            default -> call.getOperator().getSyntax() == SqlSyntax.FUNCTION ? function(call, inWindow) : null;
        };
    }

    private static List<SqlNode> flatten(SqlCall call, SqlKind kind) {
        List<SqlNode> terms = new ArrayList<>();
        for (SqlNode operand : call.getOperandList()) {
            if (operand.getKind() == kind) {
                terms.addAll(flatten((SqlCall) operand, kind));
            } else {
                terms.add(operand);
            }
        }
        return terms;
    }

    private String between(SqlCall call) {
        SqlBetweenOperator operator = (SqlBetweenOperator) call.getOperator();
        if (operator.flag == SqlBetweenOperator.Flag.SYMMETRIC) {
            return null;
        }
        String between = "(" + format(call.operand(0)) + " BETWEEN " + format(call.operand(1)) + " AND " + format(call.operand(2)) + ")";
        return operator.isNegated() ? "(NOT " + between + ")" : between;
    }

    private String in(SqlCall call, boolean negated) {
        SqlNode values = call.operand(1);
        String in = values instanceof SqlNodeList list
                ? "(" + format(call.operand(0)) + " IN (" + list(list.getList()) + "))"
                : "(" + format(call.operand(0)) + " = ANY(" + queries.format(values) + "))";
        return negated ? "(NOT " + in + ")" : in;
    }

    /** {@code x = ANY (q)} as DuckDB prints it; {@code x > ALL (q)} becomes {@code NOT (x <= ANY (q))}. */
    private String quantified(SqlCall call) {
        SqlKind comparison = ((org.apache.calcite.sql.fun.SqlQuantifyOperator) call.getOperator()).comparisonKind;
        String operator = call.getKind() == SqlKind.SOME ? INFIX.get(comparison) : NEGATED.get(comparison);
        if (operator == null || !(call.operand(1) instanceof SqlCall query) || !QueryNames.isQuery(query)) {
            return null;
        }
        String any = "(" + format(call.operand(0)) + " " + operator + " ANY(" + queries.format(query) + "))";
        return call.getKind() == SqlKind.SOME ? any : "(NOT " + any + ")";
    }

    /** LIKE is {@code ~~}, ILIKE {@code ~~*}, NOT adds {@code !}; with ESCAPE DuckDB names the function; SIMILAR TO is a regexp match. */
    private String like(SqlCall call) {
        SqlLikeOperator operator = (SqlLikeOperator) call.getOperator();
        boolean caseInsensitive = operator.getName().contains("ILIKE");
        String value = format(call.operand(0));
        String pattern = format(call.operand(1));
        if (call.getKind() == SqlKind.SIMILAR) {
            String match = "regexp_full_match(" + value + ", " + pattern + ")";
            return operator.isNegated() ? "(NOT " + match + ")" : match;
        }
        if (call.operandCount() == 3) {
            String function = (operator.isNegated() ? "not_" : "") + (caseInsensitive ? "ilike" : "like") + "_escape";
            return function + "(" + value + ", " + pattern + ", " + format(call.operand(2)) + ")";
        }
        return "(" + value + " " + (operator.isNegated() ? "!" : "") + "~~" + (caseInsensitive ? "*" : "") + " " + pattern + ")";
    }

    /** Calcite's parser already turned a simple CASE into WHEN {@code value = x}, as DuckDB prints it; a missing ELSE is NULL. */
    private String caseWhen(SqlCase call) {
        if (call.getValueOperand() != null) {
            return null;
        }
        StringBuilder out = new StringBuilder("CASE ");
        for (int i = 0; i < call.getWhenOperands().size(); i++) {
            out.append(" WHEN (").append(format(call.getWhenOperands().get(i))).append(") THEN (")
                    .append(format(call.getThenOperands().get(i))).append(')');
        }
        SqlNode otherwise = call.getElseOperand();
        return out.append(" ELSE ").append(otherwise == null ? "NULL" : format(otherwise)).append(" END").toString();
    }

    private String type(SqlDataTypeSpec spec) {
        return DuckDbSpelling.typeName(asWritten(spec));
    }

    private String trim(SqlCall call) {
        SqlTrimFunction.Flag flag = ((SqlLiteral) call.operand(0)).getValueAs(SqlTrimFunction.Flag.class);
        String function = switch (flag) {
            case BOTH -> "\"trim\"";
            case LEADING -> "ltrim";
            case TRAILING -> "rtrim";
        };
        SqlNode characters = call.operand(1);
        // TRIM(x) gets a made-up ' ' from the parser, at the call's own position
        boolean implicit = characters.getParserPosition().equals(call.getParserPosition())
                || characters.getParserPosition().equals(SqlParserPos.ZERO);
        return function + "(" + format(call.operand(2)) + (implicit ? "" : ", " + format(characters)) + ")";
    }

    private String function(SqlCall call, boolean inWindow) {
        String name = call.getOperator().getName().toLowerCase(Locale.ROOT);
        List<SqlNode> operands = call.getOperandList();
        if (name.equals("count") && operands.size() == 1 && operands.get(0) instanceof SqlIdentifier id && id.isStar()) {
            // DuckDB's own inconsistency: COUNT(*) is count_star() on its own and count() in a window
            return inWindow ? "count()" : "count_star()";
        }
        if (name.equals("coalesce") || name.equals("ifnull")) {
            return "COALESCE(" + list(operands) + ")";
        }
        String distinct = call.getFunctionQuantifier() != null && call.getFunctionQuantifier().getValue() != null
                && "DISTINCT".equals(call.getFunctionQuantifier().getValue().toString()) ? "DISTINCT " : "";
        return quoted(name) + "(" + distinct + list(operands) + ")";
    }

    private String window(SqlWindow window) {
        List<String> parts = new ArrayList<>();
        if (window.getRefName() != null) {
            parts.add(identifier(window.getRefName()));
        }
        if (!window.getPartitionList().isEmpty()) {
            parts.add("PARTITION BY " + list(window.getPartitionList().getList()));
        }
        if (!window.getOrderList().isEmpty()) {
            parts.add("ORDER BY " + orderItems(window.getOrderList().getList()));
        }
        if (window.getLowerBound() != null) {
            SqlNode upper = window.getUpperBound();
            parts.add((window.isRows() ? "ROWS" : "RANGE") + " BETWEEN " + bound(window.getLowerBound()) + " AND "
                    + (upper == null ? "CURRENT ROW" : bound(upper)));
        }
        return String.join(" ", parts);
    }

    private String bound(SqlNode bound) {
        if (bound instanceof SqlCall call && (call.getKind() == SqlKind.PRECEDING || call.getKind() == SqlKind.FOLLOWING)) {
            return format(call.operand(0)) + " " + call.getKind().sql;
        }
        return asWritten(bound).toUpperCase(Locale.ROOT);
    }

    /** ORDER BY items: DESC and NULLS FIRST/LAST as parsed, ASC where the user wrote it. */
    String orderItems(List<SqlNode> items) {
        return items.stream().map(this::orderItem).collect(Collectors.joining(", "));
    }

    private String orderItem(SqlNode item) {
        String nulls = "";
        if (item.getKind() == SqlKind.NULLS_FIRST || item.getKind() == SqlKind.NULLS_LAST) {
            nulls = item.getKind() == SqlKind.NULLS_FIRST ? " NULLS FIRST" : " NULLS LAST";
            item = ((SqlCall) item).operand(0);
        }
        if (item.getKind() == SqlKind.DESCENDING) {
            return format(((SqlCall) item).operand(0)) + " DESC" + nulls;
        }
        String ascending = "asc".equalsIgnoreCase(text.wordAfter(item.getParserPosition())) ? " ASC" : "";
        return format(item) + ascending + nulls;
    }

    String list(List<SqlNode> nodes) {
        return nodes.stream().map(this::format).collect(Collectors.joining(", "));
    }
}
