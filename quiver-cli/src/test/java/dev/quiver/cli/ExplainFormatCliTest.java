package dev.quiver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.cli.CliRunner.Run;
import dev.quiver.engine.source.tpch.TpchQueries;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plans as pictures from the command line: DOT printed as it is (so that it pipes into Graphviz's
 * dot), SVG through dot, and the TPC-H queries by number, checked against the answer files.
 */
class ExplainFormatCliTest {
    private static final String QUERY = "select n_regionkey, count(*) from nation where n_nationkey < 20 group by n_regionkey";
    private static final Pattern LABEL = Pattern.compile("\\[label=\"((?:[^\"\\\\]|\\\\.)*)\"\\]");

    @Test
    void explainFormatDotPrintsTheGraphAsItIsWithOneNodePerPlanLine() {
        Run text = CliRunner.run("sql", "--tpch", "0.01", "--partitions", "2", "explain " + QUERY);
        Run dot = CliRunner.run("sql", "--tpch", "0.01", "--partitions", "2", "--explain-format", "dot", "explain " + QUERY);
        assertThat(dot.err()).isEmpty();
        assertThat(dot.exitCode()).isZero();
        assertThat(dot.out()).startsWith("digraph plan {\n").endsWith("}\n").doesNotContain("---+").doesNotContain("(1 row");
        // the same plan as the text form: its lines, in the same order, are the graph's node labels
        List<String> planLines = text.out().lines().skip(2).takeWhile(line -> !line.startsWith("(1 row")).map(String::strip).toList();
        assertThat(labels(dot.out())).containsExactlyElementsOf(planLines);
        assertThat(Pattern.compile(" -> ").matcher(dot.out()).results().count()).isEqualTo(planLines.size() - 1);
    }

    @Test
    void explainWithAFormatOptionOverridesTheSetting() {
        Run dot = CliRunner.run("sql", "--tpch", "0.01", "EXPLAIN (FORMAT DOT) " + QUERY);
        assertThat(dot.err()).isEmpty();
        assertThat(dot.out()).startsWith("digraph plan {\n");
        Run analyze = CliRunner.run("sql", "--tpch", "0.01", "EXPLAIN (ANALYZE, FORMAT DOT) " + QUERY);
        assertThat(analyze.out()).startsWith("digraph plan {\n").contains("output_rows=");
        Run text = CliRunner.run("sql", "--tpch", "0.01", "--explain-format", "dot", "explain (format text) " + QUERY);
        assertThat(text.out()).startsWith(" plan\n");
        Run bad = CliRunner.run("sql", "--tpch", "0.01", "explain (format png) " + QUERY);
        assertThat(bad.exitCode()).isEqualTo(1);
        assertThat(bad.err()).isEqualTo("Error: INVALID_ARGUMENT: EXPLAIN format 'png' is not one of TEXT, DOT\n");
    }

    @Test
    void distributedPlansPrintAsDotToo() {
        Run dot = CliRunner.run("sql", "--tpch", "0.01", "--local-workers", "2", "--worker-memory-limit", "256MiB",
                "--explain-format", "dot", "explain " + QUERY);
        assertThat(dot.err()).isEmpty();
        assertThat(dot.out()).startsWith("digraph distributed_plan {\n").contains("subgraph cluster_s").endsWith("}\n");
    }

    @Test
    void csvKeepsTheGraphAValue() {
        Run csv = CliRunner.run("sql", "--tpch", "0.01", "--format", "csv", "explain (format dot) " + QUERY);
        assertThat(csv.out()).startsWith("plan\n\"digraph plan {\n");
    }

    @Test
    void svgWithoutGraphvizSaysHowToInstallIt(@TempDir Path dir) {
        String missing = dir.resolve("no-such-dot").toString();
        Run run = withDot(missing, () -> CliRunner.run("sql", "--tpch", "0.01", "--explain-format", "svg", "explain " + QUERY));
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).isEqualTo("Error: NOT_SUPPORTED: " + Graphviz.NOT_INSTALLED + "\n");
        // statements other than EXPLAIN do not need Graphviz
        Run query = withDot(missing, () -> CliRunner.run("sql", "--tpch", "0.01", "--format", "csv", "--explain-format", "svg", "select count(*) as n from nation"));
        assertThat(query.out()).isEqualTo("n\n25\n");
    }

    @Test
    void svgIsWhatDotMakesOfTheGraph(@TempDir Path dir) throws IOException {
        // a stand-in for Graphviz's dot: wraps the graph it reads on stdin, so the test sees what reached it
        Path fake = dir.resolve("dot");
        Files.writeString(fake, "#!/bin/sh\n[ \"$1\" = -Tsvg ] || exit 3\necho '<svg>'\ncat\necho '</svg>'\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwx------"));
        Run run = withDot(fake.toString(), () -> CliRunner.run("sql", "--tpch", "0.01", "--explain-format", "svg", "explain " + QUERY));
        assertThat(run.err()).isEmpty();
        assertThat(run.out()).startsWith("<svg>\ndigraph plan {\n").endsWith("}\n</svg>\n");
    }

    @Test
    void tpchQueryRunsTheQueryByNumberWithItsAnswer() {
        Run run = CliRunner.run("sql", "--tpch", "0.01", "--format", "csv", "--tpch-query", "3");
        assertThat(run.err()).isEmpty();
        List<String> answer = TpchQueries.answer(3).lines().filter(line -> !line.startsWith("--"))
                .map(line -> line.replaceAll("\\|$", "").replace('|', ',')).toList();
        assertThat(run.out().lines().skip(1).toList()).isEqualTo(answer);

        Run noTables = CliRunner.run("sql", "--tpch-query", "3");
        assertThat(noTables.exitCode()).isEqualTo(2);
        assertThat(noTables.err()).startsWith("Error: --tpch-query needs the TPC-H tables");
        Run outOfRange = CliRunner.run("sql", "--tpch", "0.01", "--tpch-query", "23");
        assertThat(outOfRange.exitCode()).isEqualTo(2);
    }

    private static List<String> labels(String dot) {
        Matcher matcher = LABEL.matcher(dot);
        List<String> labels = new java.util.ArrayList<>();
        while (matcher.find()) {
            labels.add(matcher.group(1).replace("\\\"", "\"").replace("\\\\", "\\"));
        }
        return labels;
    }

    private static Run withDot(String command, java.util.function.Supplier<Run> run) {
        System.setProperty("quiver.dot", command);
        try {
            return run.get();
        } finally {
            System.clearProperty("quiver.dot");
        }
    }
}
