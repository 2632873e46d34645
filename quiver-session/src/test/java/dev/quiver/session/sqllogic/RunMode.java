package dev.quiver.session.sqllogic;

import java.util.Locale;
import java.util.Optional;

/** Where the suite runs a file: one node, 4 local workers with static task counts, or 4 local workers with AQE. */
enum RunMode {
    SINGLE, STATIC, ADAPTIVE;

    /** The name {@code skipif} and {@code onlyif} lines use. */
    String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    static Optional<RunMode> ofLabel(String label) {
        for (RunMode mode : values()) {
            if (mode.label().equals(label)) {
                return Optional.of(mode);
            }
        }
        return Optional.empty();
    }
}
