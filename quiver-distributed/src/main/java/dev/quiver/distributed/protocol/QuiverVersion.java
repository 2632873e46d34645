package dev.quiver.distributed.protocol;

/**
 * The version a coordinator and its workers must share: each task request carries it and each
 * worker states it in its worker-info answer. Plans, tickets and control messages have no
 * compatibility guarantee across versions, so any difference is refused (WORKER_VERSION_MISMATCH).
 */
public final class QuiverVersion {
    /** This build's version; keep it equal to the Maven project version. */
    public static final String CURRENT = "0.1.0-SNAPSHOT";

    private QuiverVersion() {}
}
