package dev.quiver.sql.planner;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.JvmErrors;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.error.QuiverException.SqlPosition;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.runtime.CalciteException;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlValidatorException;
import org.apache.calcite.tools.Planner;
import org.apache.calcite.tools.RelConversionException;
import org.apache.calcite.tools.ValidationException;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Runs the steps of a Calcite {@link Planner} and turns its exceptions into
 * {@link QuiverException}s: a code a client can act on, a one-line message, and the position in
 * the SQL text when Calcite knows it.
 */
final class SqlErrors {
    private static final Pattern PARSER_POSITION = Pattern.compile("\\s*at line \\d+, column \\d+\\.?");
    private static final Pattern OBJECT_NOT_FOUND = Pattern.compile("(?:Object|Table) '([^']*)' not found.*");
    private static final Pattern COLUMN_NOT_FOUND = Pattern.compile(
            "(?:Column '[^']*' not found .*|Unknown (?:target )?(?:field|column) .*|.*(?:EXCLUDE|EXCEPT|REPLACE).* unknown column.*)");
    /** Calcite's messages for aggregates where SQL allows none (not window functions: "Windowed aggregate ..."). */
    private static final Pattern INVALID_AGGREGATION = Pattern.compile(
            "(?:Aggregate expressions cannot be nested|Aggregate expression is illegal in .*|Expression '.*' is not being grouped"
                    + "|.*must be an aggregate expression|Aggregate expressions? .*not allowed.*).*", Pattern.DOTALL);
    private static final Pattern NO_FUNCTION = Pattern.compile("No match found for function signature ([^(]+)\\(.*", Pattern.DOTALL);
    private static final Pattern TYPE_ERROR = Pattern.compile(
            "(?:Cannot apply|Cannot infer return type|Cannot assign|Type mismatch|Illegal mixing of types|Cast function cannot convert"
                    + "|Cannot cast|.*cannot be converted|.*must be of type|.*requires (?:a |an )?(?:numeric|boolean|string|date)"
                    + "|Values passed to .* must have compatible types|Parameters must be of the same type"
                    + "|.*has incompatible types|Incompatible types).*", Pattern.DOTALL);

    private SqlErrors() {}

    static SqlNode parse(Planner planner, String sql) {
        try {
            return planner.parse(sql);
        } catch (SqlParseException e) {
            throw syntaxError(e);
        }
    }

    static SqlNode validate(Planner planner, SqlNode parsed) {
        try {
            return planner.validate(parsed);
        } catch (ValidationException | RuntimeException e) {
            throw semanticError(e);
        }
    }

    static RelDataType validatedRowType(Planner planner, SqlNode parsed) {
        try {
            return planner.validateAndGetType(parsed).getValue();
        } catch (ValidationException | RuntimeException e) {
            throw semanticError(e);
        }
    }

    static RelRoot convert(Planner planner, SqlNode validated) {
        try {
            return planner.rel(validated);
        } catch (RelConversionException | RuntimeException e) {
            throw semanticError(e);
        } catch (AssertionError e) {
            throw conversionFailure(e);
        }
    }

    /**
     * Calcite checks with an assertion that conversion kept the validated column types. A recursive
     * query whose recursive part widens a column (a DECIMAL that grows with each addition) fails it:
     * that is the user's to fix, with a cast; anything else is a bug.
     */
    private static QuiverException conversionFailure(AssertionError e) {
        String message = firstLine(e.getMessage());
        if (message.startsWith("Conversion to relational algebra failed to preserve datatypes")) {
            return new QuiverException(ErrorCode.TYPE_MISMATCH, "A column's type changes between the parts of this query (in WITH RECURSIVE:"
                    + " the recursive part gives a column a wider type than the first part); cast it to one type in both", null, e);
        }
        return new QuiverException(ErrorCode.PLAN_ERROR, "Planning the query failed: " + message, null, e);
    }

    static RelNode optimize(RelNode rel) {
        try {
            return LogicalOptimizer.optimize(rel);
        } catch (QuiverException e) {
            throw e;
        } catch (RuntimeException | AssertionError e) {
            // Calcite's own consistency checks (Litmus.THROW, e.g. in the decorrelator) throw AssertionError
            throw new QuiverException(ErrorCode.PLAN_ERROR, "Optimizing the query failed: " + firstLine(e.getMessage()), e);
        }
    }

    /** An error in a view's text, seen while planning a query that uses the view. */
    static QuiverException inView(String view, QuiverException e) {
        return new QuiverException(e.errorCode(), "In view '" + view + "': " + e.getMessage(), null, e);
    }

    static QuiverException syntaxError(SqlParseException e) {
        QuiverException checked = find(e, QuiverException.class);
        if (checked != null) {
            // a check Quiver runs on the parsed text (see WindowSyntax)
            return checked;
        }
        if (JvmErrors.isStackOverflow(e)) {
            // Calcite's parser wraps the overflow in a parse exception with no message
            return JvmErrors.stackOverflow("parsing it", e);
        }
        SqlParserPos pos = e.getPos();
        String message = firstLine(e.getMessage());
        message = PARSER_POSITION.matcher(message).replaceFirst("").strip();
        if (message.endsWith(".")) {
            message = message.substring(0, message.length() - 1);
        }
        if (pos == null || pos.getLineNum() <= 0) {
            return new QuiverException(ErrorCode.SYNTAX_ERROR, "Syntax error: " + message, null, e);
        }
        return new QuiverException(ErrorCode.SYNTAX_ERROR,
                String.format("Syntax error at line %d, column %d: %s", pos.getLineNum(), pos.getColumnNum(), message),
                new SqlPosition(pos.getLineNum(), pos.getColumnNum()), e);
    }

    static QuiverException semanticError(Exception e) {
        QuiverException quiver = find(e, QuiverException.class);
        if (quiver != null) {
            return quiver;
        }
        SqlParseException parse = find(e, SqlParseException.class);
        if (parse != null) {
            return syntaxError(parse);
        }
        CalciteContextException context = find(e, CalciteContextException.class);
        SqlPosition position = null;
        String message;
        if (context != null) {
            message = context.getCause() != null && context.getCause().getMessage() != null
                    ? context.getCause().getMessage() : context.getMessage();
            if (context.getPosLine() > 0) {
                position = new SqlPosition(context.getPosLine(), context.getPosColumn());
            }
        } else if (find(e, CalciteException.class) != null || find(e, SqlValidatorException.class) != null
                || e instanceof ValidationException || e instanceof RelConversionException) {
            message = rootMessage(e);
        } else {
            // Not Calcite telling the user what is wrong: a bug, reported as one
            return new QuiverException(ErrorCode.PLAN_ERROR, "Planning the query failed: " + firstLine(rootMessage(e)), null, e);
        }
        ErrorCode code = classify(message);
        String text = shorten(code, message);
        if (position != null) {
            text = text + " (at " + position + ")";
        }
        return new QuiverException(code, text, position, e);
    }

    private static ErrorCode classify(String message) {
        if (OBJECT_NOT_FOUND.matcher(message).matches()) {
            return ErrorCode.TABLE_NOT_FOUND;
        }
        if (COLUMN_NOT_FOUND.matcher(message).matches()) {
            return ErrorCode.COLUMN_NOT_FOUND;
        }
        if (INVALID_AGGREGATION.matcher(message).matches()) {
            return ErrorCode.INVALID_AGGREGATION;
        }
        Matcher function = NO_FUNCTION.matcher(message);
        if (function.matches()) {
            return isKnownFunction(function.group(1).strip()) ? ErrorCode.TYPE_MISMATCH : ErrorCode.FUNCTION_NOT_FOUND;
        }
        if (TYPE_ERROR.matcher(message).matches()) {
            return ErrorCode.TYPE_MISMATCH;
        }
        if (message.contains("not supported") || message.contains("Unsupported")) {
            return ErrorCode.NOT_SUPPORTED;
        }
        return ErrorCode.INVALID_ARGUMENT;
    }

    private static String shorten(ErrorCode code, String message) {
        String text = firstLine(message);
        if (code == ErrorCode.TABLE_NOT_FOUND) {
            Matcher matcher = OBJECT_NOT_FOUND.matcher(text);
            if (matcher.matches()) {
                return "Table '" + matcher.group(1) + "' not found";
            }
        }
        if (code == ErrorCode.FUNCTION_NOT_FOUND) {
            Matcher matcher = NO_FUNCTION.matcher(text);
            if (matcher.matches()) {
                return "Function '" + matcher.group(1).strip() + "' not found: " + text.replace("No match found for function signature ", "no function ");
            }
        }
        if (code == ErrorCode.TYPE_MISMATCH && text.startsWith("No match found for function signature ")) {
            return "No form of the function accepts these argument types: " + text.substring("No match found for function signature ".length());
        }
        int supported = text.indexOf(". Supported form(s):");
        return supported > 0 ? text.substring(0, supported) : text;
    }

    private static boolean isKnownFunction(String name) {
        return SqlPlanner.OPERATOR_TABLE.getOperatorList().stream()
                .anyMatch(op -> op.getName().toUpperCase(Locale.ROOT).equals(name.toUpperCase(Locale.ROOT)));
    }

    private static <T extends Throwable> @Nullable T find(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }

    private static String rootMessage(Throwable e) {
        String message = null;
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getMessage() != null) {
                message = t.getMessage();
            }
        }
        return message == null ? e.getClass().getSimpleName() : message;
    }

    private static String firstLine(@Nullable String message) {
        if (message == null) {
            return "";
        }
        int newline = message.indexOf('\n');
        return (newline < 0 ? message : message.substring(0, newline)).strip();
    }
}
