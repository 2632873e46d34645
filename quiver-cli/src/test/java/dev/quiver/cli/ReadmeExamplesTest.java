package dev.quiver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.cli.CliRunner.Run;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The {@code ./quiver sql} examples of README.md, run as written (in this JVM rather than through
 * the launcher): each must succeed with nothing on stderr. Left out, because they need what a test
 * cannot give them in-process: the shell (no SQL; ShellPtyTest drives it on a pty) and
 * {@code --workers} (a worker process; WorkerCommandTest runs one).
 */
class ReadmeExamplesTest {
    private static final Path README = Path.of("..", "README.md");
    private static final Pattern WORKER = Pattern.compile("task \\d+ on (127\\.0\\.0\\.1:\\d+): FINISHED");

    @Test
    void everySqlExampleRunsAsWritten() throws IOException {
        List<String> examples = sqlExamples(Files.readString(README, StandardCharsets.UTF_8));
        int ran = 0;
        for (String example : examples) {
            List<String> words = ShellWords.split(example);
            String stdin = "";
            if (words.get(0).equals("echo")) {
                stdin = words.get(1);
                words = words.subList(3, words.size()); // echo TEXT | ./quiver ...
            }
            int redirect = words.indexOf(">");
            if (redirect >= 0) {
                words = words.subList(0, redirect);
            }
            List<String> args = words.subList(1, words.size());
            if (args.contains("--workers") || args.equals(List.of("sql", "--tpch", "0.01"))) {
                continue;
            }
            Run run = CliRunner.runWithStdin(stdin, args.toArray(String[]::new));
            assertThat(run.err()).as("stderr of: %s", example).isEmpty();
            assertThat(run.exitCode()).as("exit code of: %s", example).isZero();
            assertThat(run.out()).as("output of: %s", example).isNotBlank();
            if (args.contains("--local-workers")) {
                Set<String> workers = new TreeSet<>();
                Matcher matcher = WORKER.matcher(run.out());
                while (matcher.find()) {
                    workers.add(matcher.group(1));
                }
                assertThat(workers).as("the workers that ran tasks of: %s", example).hasSize(Integer.parseInt(args.get(args.indexOf("--local-workers") + 1)));
            }
            ran++;
        }
        assertThat(ran).as("README examples run, of %s", examples).isGreaterThanOrEqualTo(6);
    }

    /** The lines of the README's code blocks that run {@code quiver sql}, a trailing backslash joining the next line, without comments. */
    private static List<String> sqlExamples(String readme) {
        List<String> examples = new ArrayList<>();
        boolean inCode = false;
        StringBuilder pending = new StringBuilder();
        for (String line : readme.lines().toList()) {
            if (line.startsWith("```")) {
                inCode = !inCode;
                continue;
            }
            if (!inCode) {
                continue;
            }
            pending.append(line.strip());
            if (line.endsWith("\\")) {
                pending.setLength(pending.length() - 1);
                continue;
            }
            String command = ShellWords.withoutComment(pending.toString()).strip();
            pending.setLength(0);
            if (command.contains("./quiver sql")) {
                examples.add(command);
            }
        }
        return examples;
    }

    /** Enough of the shell's word splitting for the README: blanks separate words, quotes group them. */
    static final class ShellWords {
        private ShellWords() {}

        static List<String> split(String line) {
            List<String> words = new ArrayList<>();
            StringBuilder word = new StringBuilder();
            boolean inWord = false;
            char quote = 0;
            for (int i = 0; i < line.length(); i++) {
                char c = line.charAt(i);
                if (quote != 0) {
                    if (c == quote) {
                        quote = 0;
                    } else {
                        word.append(c);
                    }
                } else if (c == '"' || c == '\'') {
                    quote = c;
                    inWord = true;
                } else if (Character.isWhitespace(c)) {
                    if (inWord) {
                        words.add(word.toString());
                        word.setLength(0);
                        inWord = false;
                    }
                } else {
                    word.append(c);
                    inWord = true;
                }
            }
            if (inWord) {
                words.add(word.toString());
            }
            return words;
        }

        /** {@code line} up to a {@code #} that starts a comment (outside quotes, after a blank). */
        static String withoutComment(String line) {
            char quote = 0;
            for (int i = 0; i < line.length(); i++) {
                char c = line.charAt(i);
                if (quote != 0) {
                    quote = c == quote ? 0 : quote;
                } else if (c == '"' || c == '\'') {
                    quote = c;
                } else if (c == '#' && (i == 0 || Character.isWhitespace(line.charAt(i - 1)))) {
                    return line.substring(0, i);
                }
            }
            return line;
        }
    }
}
