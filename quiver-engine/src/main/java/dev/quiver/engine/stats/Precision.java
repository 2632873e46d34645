package dev.quiver.engine.stats;

/** How much a statistic can be trusted. */
public enum Precision {
    /** The true value. */
    EXACT,
    /** An estimate. */
    INEXACT,
    /** Not known. */
    ABSENT
}
