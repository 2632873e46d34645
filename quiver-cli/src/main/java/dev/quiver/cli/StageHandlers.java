package dev.quiver.cli;

import dev.quiver.distributed.event.StageEventHandler;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/** Instantiates the {@code --stage-handler} classes, failing with a message naming the class. */
final class StageHandlers {
    private StageHandlers() {}

    static StageEventHandler instantiate(CommandLine commandLine, String className) {
        String option = "Invalid value for option '--stage-handler': " + className;
        Class<?> type;
        try {
            type = Class.forName(className, true, StageHandlers.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new ParameterException(commandLine, option + " (no such class on the class path)");
        }
        if (!StageEventHandler.class.isAssignableFrom(type)) {
            throw new ParameterException(commandLine, option + " (not a " + StageEventHandler.class.getName() + ")");
        }
        Constructor<?> constructor;
        try {
            constructor = type.getConstructor();
        } catch (NoSuchMethodException e) {
            throw new ParameterException(commandLine, option + " (it has no public no-argument constructor)");
        }
        try {
            return (StageEventHandler) constructor.newInstance();
        } catch (InvocationTargetException e) {
            throw new ParameterException(commandLine, option + " (its constructor failed: " + e.getCause() + ")");
        } catch (ReflectiveOperationException e) {
            throw new ParameterException(commandLine, option + " (it cannot be instantiated: " + e.getMessage() + ")");
        }
    }
}
