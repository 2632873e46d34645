package dev.quiver.cli;

import static java.util.Objects.requireNonNull;

import dev.quiver.session.QueryHandle;
import java.io.PrintWriter;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * The line on a terminal's stderr that says how far a query running longer than a second has got
 * ({@link QueryProgress}), redrawn four times a second and erased before the result prints. Owns
 * one named daemon thread, made on first use and ended by {@link #close()}.
 */
final class ProgressLine implements AutoCloseable {
    /** Queries that finish sooner show no progress: a flickering line would only distract. */
    static final long DELAY_MILLIS = 1000;
    private static final long PERIOD_MILLIS = 250;
    /** Carriage return, then erase to the end of the line (ANSI EL). */
    private static final String ERASE = "\r\u001b[K";

    private final PrintWriter err;
    private final IntSupplier width;
    private ScheduledThreadPoolExecutor timer;

    /** Draws on {@code err}, a terminal {@code width} characters wide (0 when unknown), cutting longer lines. */
    ProgressLine(PrintWriter err, IntSupplier width) {
        this.err = requireNonNull(err, "err is null");
        this.width = requireNonNull(width, "width is null");
    }

    /** Starts showing the progress of {@code handle}; the returned ticket erases it. */
    synchronized Ticket show(QueryHandle handle) {
        requireNonNull(handle, "handle is null");
        if (timer == null) {
            timer = new ScheduledThreadPoolExecutor(1, runnable -> {
                Thread thread = new Thread(runnable, "quiver-progress");
                thread.setDaemon(true);
                return thread;
            });
            timer.setRemoveOnCancelPolicy(true);
        }
        Ticket ticket = new Ticket(new QueryProgress(handle));
        ticket.future = timer.scheduleAtFixedRate(ticket::draw, DELAY_MILLIS, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
        return ticket;
    }

    @Override
    public synchronized void close() {
        if (timer != null) {
            timer.shutdownNow();
            try {
                timer.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The progress line of one query. */
    final class Ticket {
        private final QueryProgress progress;
        private ScheduledFuture<?> future;
        private boolean drawn;
        private boolean erased;

        private Ticket(QueryProgress progress) {
            this.progress = progress;
        }

        private synchronized void draw() {
            if (erased) {
                return;
            }
            String line = progress.describe();
            int columns = width.getAsInt();
            if (columns > 1 && line.length() >= columns) {
                line = line.substring(0, columns - 1);
            }
            err.print(ERASE + line);
            err.flush();
            drawn = true;
        }

        /** Stops redrawing and erases the line if it was drawn; the result may print after this returns. */
        void erase() {
            future.cancel(false);
            synchronized (this) {
                if (erased) {
                    return;
                }
                erased = true;
                if (drawn) {
                    err.print(ERASE);
                    err.flush();
                }
            }
        }
    }
}
