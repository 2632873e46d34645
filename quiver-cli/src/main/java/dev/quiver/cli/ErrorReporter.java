package dev.quiver.cli;

import dev.quiver.engine.error.JvmErrors;
import dev.quiver.engine.error.QuiverException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * Turns failures into one line on stderr and an exit code: {@code Error: <CODE>: <message>} and 1
 * for a failed statement, {@code Error: <message>} and 2 for bad arguments. Set
 * {@code QUIVER_DEBUG=1} to get stack traces as well.
 */
final class ErrorReporter implements IExecutionExceptionHandler, IParameterExceptionHandler {
    static final int FAILURE = 1;

    @Override
    public int handleExecutionException(Exception exception, CommandLine commandLine, ParseResult parseResult) {
        PrintWriter err = commandLine.getErr();
        err.println("Error: " + describe(exception));
        printStackTraceIfDebugging(exception, err);
        err.flush();
        return FAILURE;
    }

    @Override
    public int handleParseException(ParameterException exception, String[] args) {
        CommandLine commandLine = exception.getCommandLine();
        PrintWriter err = commandLine.getErr();
        err.println("Error: " + exception.getMessage());
        if (!CommandLine.UnmatchedArgumentException.printSuggestions(exception, err)) {
            err.println("Run '" + commandLine.getCommandSpec().qualifiedName() + " --help' for usage.");
        }
        printStackTraceIfDebugging(exception, err);
        err.flush();
        return commandLine.getCommandSpec().exitCodeOnInvalidInput();
    }

    /** The one-line text of a failure: {@code CODE: message (line L, column C)}. */
    static String describe(Throwable failure) {
        QuiverException quiver = findQuiverException(failure);
        if (quiver != null) {
            String message = quiver.userMessage();
            if (quiver.position().isPresent()) {
                QuiverException.SqlPosition position = quiver.position().get();
                if (!message.contains("line " + position.line())) {
                    message += " (" + position + ")";
                }
            }
            return message;
        }
        if (JvmErrors.isStackOverflow(failure)) {
            return describe(JvmErrors.stackOverflow("running it", failure));
        }
        if (failure instanceof OutOfMemoryError) {
            return "EXCEEDED_MEMORY_LIMIT: the JVM ran out of memory (" + failure.getMessage()
                    + "); lower --memory-limit or give the JVM more with QUIVER_JAVA_OPTS=-Xmx...";
        }
        String message = failure.getMessage();
        return "INTERNAL_ERROR: " + failure.getClass().getName() + (message == null ? "" : ": " + message);
    }

    private static QuiverException findQuiverException(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof QuiverException quiver) {
                return quiver;
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return null;
    }

    static void printStackTraceIfDebugging(Throwable failure, PrintWriter err) {
        String debug = System.getenv("QUIVER_DEBUG");
        if (debug != null && !debug.isEmpty() && !debug.equals("0")) {
            failure.printStackTrace(err);
        }
    }
}
