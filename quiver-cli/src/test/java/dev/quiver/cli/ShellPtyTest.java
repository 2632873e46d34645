package dev.quiver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The interactive shell through a real pseudo-terminal ({@link PtyShell}): the prompt, statements
 * over several lines, history recalled with the Up arrow and kept in {@code ~/.quiver_history},
 * completion, meta commands, Ctrl-C cancelling a running query, Ctrl-D. The answers are TPC-H's
 * (nation and region are fixed tables: 25 nations, 5 regions).
 */
class ShellPtyTest {
    /** What an xterm sends for Up in the keypad mode that JLine asks for. */
    private static final String UP = "\u001bOA";
    /** What a terminal ignoring keypad mode sends for Up. */
    private static final String PLAIN_UP = "\u001b[A";
    private static final String CTRL_C = "\u0003";
    private static final String CTRL_D = "\u0004";
    private static final String FOOTER_2_ROWS = "\\(2 rows, \\d+\\.\\d{3} s\\)";

    @Test
    void promptMultiLineHistoryCompletionAndMetaCommands(@TempDir Path home) throws Exception {
        Path script = home.resolve("two.sql");
        Files.writeString(script, "select 'from a file' as origin;\nselect count(*) as regions from region;\n", StandardCharsets.UTF_8);
        Path badCsv = Files.writeString(home.resolve("bad.csv"), "a,b\n1,2\n3\n4,x\n5,6,7\n8,9\n", StandardCharsets.UTF_8);
        try (PtyShell shell = PtyShell.start(home, "sql", "--tpch", "0.01")) {
            shell.expectPrompt();

            shell.type("select n_name\r");
            shell.expect(Pattern.quote(Shell.CONTINUATION_PROMPT));
            shell.type("from nation where n_nationkey < 2 order by n_name;\r");
            assertThat(shell.expect(FOOTER_2_ROWS)).contains(" n_name\n-----------\n ALGERIA\n ARGENTINA\n");
            shell.expectPrompt();

            // Up recalls the two lines as one entry; Enter runs them again
            shell.type(UP);
            shell.expect("order by n_name;");
            shell.type("\r");
            shell.expect(FOOTER_2_ROWS);
            shell.expectPrompt();
            shell.type("select 42 as answer;\r");
            shell.expect("\n +42\n");
            shell.expectPrompt();
            shell.type(PLAIN_UP + "\r");
            shell.expect("\n +42\n");
            shell.expectPrompt();

            // Tab completes a table name
            shell.type("select count(*) as n from regi\t");
            shell.expect("from region");
            shell.type(";\r");
            shell.expect("\n +5\n\\(1 row");
            shell.expectPrompt();

            // Tab completes a column, of a view made in this session too
            shell.type("create view eu as select r_regionkey as eu_key from region where r_name = 'EUROPE';\r");
            shell.expect("OK");
            shell.expectPrompt();
            shell.type("select eu_k\t");
            shell.expect("select eu_key");
            shell.type(" from eu;\r");
            shell.expect("\n +3\n\\(1 row");
            shell.expectPrompt();

            // the listings are SHOW TABLES and DESCRIBE, every row, without the time
            shell.type(".tables\r");
            assertThat(shell.expect("\\(9 rows\\)\n")).contains(" name\n").contains(" eu\n").contains(" lineitem\n").contains(" region\n");
            shell.expectPrompt();
            shell.type("\\d region\r");
            assertThat(shell.expect("\\(3 rows\\)\n")).contains(" r_regionkey | BIGINT      | NO   |").contains(" column_name | column_type | null |");
            shell.expectPrompt();
            shell.type(".schema eu\r");
            assertThat(shell.expect("\\(1 row\\)\n")).contains(" eu_key      | BIGINT      |");
            shell.expectPrompt();
            shell.type(".schema\r");
            assertThat(shell.expect("\\(\\d+ rows\\)\n")).containsPattern(" region +\\| r_regionkey +\\| BIGINT +\\| NO\n")
                    .containsPattern(" eu +\\| eu_key +\\| BIGINT ");
            shell.expectPrompt();
            shell.type(".schema nosuch\r");
            shell.expect("Error: TABLE_NOT_FOUND: ");
            shell.expectPrompt();
            shell.type(".schema region; drop view eu\r");
            shell.expect("Error: INVALID_ARGUMENT: .schema takes the name of a table or view");
            shell.expectPrompt();

            shell.type(".maxrows 4\r");
            shell.expectPrompt();
            shell.type(".timer off\r");
            shell.expectPrompt();
            shell.type("select n_nationkey from nation order by 1;\r");
            assertThat(shell.expect("\\(25 rows \\(4 shown\\)\\)\n"))
                    .endsWith(" n_nationkey\n-------------\n           0\n           1\n ...\n          23\n          24\n(25 rows (4 shown))\n");
            shell.expectPrompt();

            shell.type(".mode csv\r");
            shell.expectPrompt();
            shell.type(".read " + script + "\r");
            assertThat(shell.expect("regions\n5\n")).contains("origin\nfrom a file\n");
            shell.expectPrompt();

            // a warning prints on the terminal after the result
            shell.type("select a, b from read_csv('" + badCsv + "', columns = {'a': 'BIGINT', 'b': 'BIGINT'}, ignore_errors = true) order by a;\r");
            shell.expect(Pattern.quote("a,b\n1,2\n8,9\nWarning: 3 rows of read_csv('" + badCsv + "', ") + ".*"
                    + Pattern.quote(" skipped (ignore_errors = true): they do not read as the table's columns\n"));
            shell.expectPrompt();

            shell.type(".help\r");
            shell.expect(Pattern.quote(".tables, \\d          list the tables and views (SHOW TABLES)"));
            shell.expectPrompt();

            shell.type(".mode nonsense\r");
            shell.expect("Error: INVALID_ARGUMENT: Unknown mode 'nonsense'");
            shell.expectPrompt();

            shell.type(CTRL_D);
            assertThat(shell.awaitExit()).as("exit code; the terminal shows:%n%s", shell.screen()).isZero();
        }
        String history = Files.readString(home.resolve(Shell.HISTORY_FILE), StandardCharsets.UTF_8);
        assertThat(history).contains("select n_name\\nfrom nation where n_nationkey < 2 order by n_name;").contains(".maxrows 4");
    }

    @Test
    void ctrlCCancelsTheRunningQueryAndTheShellGoesOn(@TempDir Path home) throws Exception {
        try (PtyShell shell = PtyShell.start(home, "sql", "--tpch", "0.01")) {
            shell.expectPrompt();
            // 60,175 x 60,175 pairs: minutes of work, far more than the test waits for
            shell.type("select count(*) from lineitem a, lineitem b where a.l_orderkey + b.l_orderkey = 7;\r");
            // the progress line shows once the query has run for a second
            shell.expect("read [\\d,]+ rows \\(");
            shell.type(CTRL_C);
            shell.expect("Error: QUERY_CANCELLED: ");
            shell.expectPrompt();

            shell.type("select count(*) as nations from nation;\r");
            shell.expect("\n +25\n\\(1 row");
            shell.expectPrompt();

            // Ctrl-C at the prompt drops the line typed so far; the shell stays
            shell.type("select 'never run' as x" + CTRL_C);
            shell.expectPrompt();
            // the session checks, as it closes, that no memory is left reserved: a leak would fail the exit code
            shell.type(".quit\r");
            assertThat(shell.awaitExit()).as("exit code; the terminal shows:%n%s", shell.screen()).isZero();
            assertThat(shell.screen()).doesNotContain("INTERNAL_ERROR").doesNotContain("never run\n");
        }
    }
}
