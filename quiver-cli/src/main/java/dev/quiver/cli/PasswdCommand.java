package dev.quiver.cli;

import dev.quiver.server.UsersFile;
import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code quiver passwd --users FILE NAME}: sets a user's password in a server's users file (a salted hash; see docs/server.md). */
@Command(
        name = "passwd",
        mixinStandardHelpOptions = true,
        description = {"Sets the password of user NAME in the users file of quiver server --users FILE (created if missing), "
                + "read from the terminal without echo, or as the first line of standard input."},
        footer = {"", "Examples:", "  quiver passwd --users users.txt alice", "  echo \"$PASSWORD\" | quiver passwd --users users.txt bob"})
final class PasswdCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @ParentCommand
    private QuiverCli parent;

    @Option(names = "--users", paramLabel = "FILE", required = true, description = "The users file.")
    private Path users;

    @Parameters(paramLabel = "NAME", description = "The user.")
    private String name;

    @Override
    public Integer call() throws IOException {
        char[] password = readPassword();
        if (password.length == 0) {
            throw new ParameterException(spec.commandLine(), "The password is empty");
        }
        String line = UsersFile.line(name, password);
        List<String> lines = new ArrayList<>();
        if (Files.exists(users)) {
            for (String existing : Files.readAllLines(users, StandardCharsets.UTF_8)) {
                if (!existing.startsWith(name + ":")) {
                    lines.add(existing);
                }
            }
        }
        lines.add(line);
        Files.write(users, lines, StandardCharsets.UTF_8);
        spec.commandLine().getOut().println("Set the password of " + name + " in " + users);
        return 0;
    }

    private char[] readPassword() throws IOException {
        Console console = System.console();
        if (parent.stdin() == System.in && console != null) {
            char[] typed = console.readPassword("Password for %s: ", name);
            return typed == null ? new char[0] : typed;
        }
        String first = new BufferedReader(new InputStreamReader(parent.stdin(), StandardCharsets.UTF_8)).readLine();
        return first == null ? new char[0] : first.toCharArray();
    }
}
