package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.expr.function.FunctionCategory;
import dev.quiver.engine.expr.function.FunctionRegistry;
import dev.quiver.engine.expr.function.Parameter;
import dev.quiver.engine.expr.function.ScalarFunction;
import dev.quiver.engine.expr.function.Signature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * docs/sql.md lists the registry's functions: the tables between its {@code functions:begin} and
 * {@code functions:end} markers are rendered from the registry, so the documentation names every
 * function there is, and no other. On a mismatch the message holds the tables to paste.
 */
class FunctionDocsTest {
    private static final Path SQL_DOC = Path.of("..", "docs", "sql.md");
    private static final String BEGIN = "<!-- functions:begin (rendered from the registry; FunctionDocsTest checks it) -->";
    private static final String END = "<!-- functions:end -->";
    private static final Pattern HOLE = Pattern.compile("\\{(\\d+)}");

    @Test
    void sqlDocListsEveryFunction() throws IOException {
        String doc = Files.readString(SQL_DOC, StandardCharsets.UTF_8);
        int begin = doc.indexOf(BEGIN);
        int end = doc.indexOf(END);
        assertThat(begin).as("docs/sql.md has the functions markers").isNotNegative();
        assertThat(end).isGreaterThan(begin);
        String listed = doc.substring(begin + BEGIN.length(), end).strip();
        String rendered = render(FunctionRegistry.builtins());
        assertThat(listed).as("docs/sql.md's function tables; paste:\n" + rendered + "\n").isEqualTo(rendered);
    }

    static String render(FunctionRegistry registry) {
        StringBuilder text = new StringBuilder();
        for (FunctionCategory category : FunctionCategory.values()) {
            List<ScalarFunction> functions = registry.functions().stream().filter(f -> f.category() == category).toList();
            if (functions.isEmpty()) {
                continue;
            }
            if (!text.isEmpty()) {
                text.append("\n\n");
            }
            text.append("### ").append(title(category)).append("\n\n");
            text.append("| function | called as | result | what it gives |\n|---|---|---|---|\n");
            for (ScalarFunction function : functions) {
                text.append("| ").append(names(function)).append(" | ").append(forms(function)).append(" | ")
                        .append(cell(function.returnType().describe())).append(" | ").append(cell(function.description())).append(" |\n");
            }
        }
        return text.toString().strip();
    }

    private static String title(FunctionCategory category) {
        return switch (category) {
            case STRING -> "String functions";
            case MATH -> "Numeric functions";
            case CONDITIONAL -> "Conditional functions";
            case DATETIME -> "Date and time functions";
            case NESTED -> "List and map functions";
        };
    }

    private static String names(ScalarFunction function) {
        if (!function.callableByName()) {
            return "(syntax)";
        }
        return function.names().stream().map(n -> "`" + n + "`").collect(Collectors.joining(", "));
    }

    /** Each SQL form with the parameter names of the first signature long enough for it. */
    private static String forms(ScalarFunction function) {
        List<String> forms = new ArrayList<>();
        for (String form : function.sqlForms()) {
            int holes = holes(form);
            Signature signature = function.signatures().stream().filter(s -> s.maxArguments() >= holes && s.minArguments() <= holes)
                    .findFirst().orElse(function.signatures().get(0));
            Matcher hole = HOLE.matcher(form);
            StringBuilder shown = new StringBuilder();
            while (hole.find()) {
                Parameter parameter = signature.parameter(Integer.parseInt(hole.group(1)));
                hole.appendReplacement(shown, Matcher.quoteReplacement(parameter.name()));
            }
            hole.appendTail(shown);
            String call = shown.toString();
            if (signature.variadic() && call.endsWith(")")) {
                call = call.substring(0, call.length() - 1) + ", ...)";
            }
            forms.add("`" + call.replace("|", "\\|") + "`");
        }
        List<String> types = new ArrayList<>();
        for (Signature signature : function.signatures()) {
            types.add(signature.parameters().stream().map(p -> p.name() + " " + p.type().display().toUpperCase(Locale.ROOT)
                    + (p.constant() ? " (constant)" : "")).collect(Collectors.joining(", ")));
        }
        String arguments = types.stream().filter(t -> !t.isEmpty()).distinct().collect(Collectors.joining("; "));
        return String.join(", ", forms) + (arguments.isEmpty() ? "" : "<br>" + cell(arguments));
    }

    private static int holes(String form) {
        int max = -1;
        Matcher hole = HOLE.matcher(form);
        while (hole.find()) {
            max = Math.max(max, Integer.parseInt(hole.group(1)));
        }
        return max + 1;
    }

    private static String cell(String text) {
        return text.replace("|", "\\|");
    }
}
