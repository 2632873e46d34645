package dev.quiver.session.spi;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/** Finds the {@link QuiverPlugin}s on a class path. */
public final class QuiverPlugins {
    private QuiverPlugins() {}

    /**
     * Every plugin {@code loader} lists in {@code META-INF/services/dev.quiver.session.spi.QuiverPlugin},
     * in class-path order.
     *
     * @throws QuiverException INVALID_CONFIGURATION when a listed plugin cannot be loaded or made
     */
    public static List<QuiverPlugin> load(ClassLoader loader) {
        List<QuiverPlugin> plugins = new ArrayList<>();
        try {
            ServiceLoader.load(QuiverPlugin.class, loader).forEach(plugins::add);
        } catch (ServiceConfigurationError e) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "A plugin on the class path cannot be loaded: " + e.getMessage(), e);
        }
        return List.copyOf(plugins);
    }
}
