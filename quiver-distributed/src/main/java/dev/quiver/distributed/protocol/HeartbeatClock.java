package dev.quiver.distributed.protocol;

/** When one end of a control stream last heard from its peer and last sent a heartbeat. Thread-safe. */
public final class HeartbeatClock {
    private final long intervalNanos;
    private final long timeoutNanos;
    private volatile long lastHeard;
    private volatile long lastSent;

    public HeartbeatClock(HeartbeatSettings settings) {
        this.intervalNanos = settings.interval().toNanos();
        this.timeoutNanos = settings.timeout().toNanos();
        long now = System.nanoTime();
        this.lastHeard = now;
        this.lastSent = now;
    }

    public void heard() {
        lastHeard = System.nanoTime();
    }

    public boolean silentTooLong(long now) {
        return now - lastHeard > timeoutNanos;
    }

    public long silentMillis(long now) {
        return (now - lastHeard) / 1_000_000;
    }

    /** Whether a heartbeat is due; if so, counts it as sent. */
    public boolean takeSendDue(long now) {
        if (now - lastSent < intervalNanos) {
            return false;
        }
        lastSent = now;
        return true;
    }
}
