package dev.quiver.server;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallInfo;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightServerMiddleware;
import org.apache.arrow.flight.RequestContext;

/**
 * Ties a call to its client's session through a cookie, as Flight SQL clients keep one (the JDBC
 * driver always does): a call without a known {@value #COOKIE} cookie gets a new session when it
 * first needs one, and the response sets the cookie. A session belongs to the user who opened it: a
 * cookie presented by another user opens a session of their own.
 */
final class SessionMiddleware implements FlightServerMiddleware {
    static final String COOKIE = "quiver_session";
    static final Key<SessionMiddleware> KEY = Key.of("quiver-session");

    private final ClientSessions sessions;
    private final Optional<String> presentedId;
    private ClientSession session;
    private boolean opened;

    private SessionMiddleware(ClientSessions sessions, Optional<String> presentedId) {
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.presentedId = requireNonNull(presentedId, "presentedId is null");
    }

    /** The caller's session, opened now if the call brought no cookie of {@code user}'s. */
    synchronized ClientSession session(String user) {
        if (session == null) {
            Optional<ClientSession> known = presentedId.flatMap(sessions::find).filter(s -> s.user().equals(user));
            if (known.isPresent()) {
                session = known.get();
            } else {
                session = sessions.open(user);
                opened = true;
            }
        }
        session.touch();
        return session;
    }

    /** The session the call's cookie names, if it is still open. */
    synchronized Optional<ClientSession> existingSession() {
        return session != null ? Optional.of(session) : presentedId.flatMap(sessions::find);
    }

    @Override
    public synchronized void onBeforeSendingHeaders(CallHeaders outgoingHeaders) {
        if (opened) {
            outgoingHeaders.insert("set-cookie", COOKIE + "=" + session.id());
        }
    }

    @Override
    public void onCallCompleted(CallStatus status) {}

    @Override
    public void onCallErrored(Throwable err) {}

    /** Reads the cookie of each call. */
    static final class Factory implements FlightServerMiddleware.Factory<SessionMiddleware> {
        private final ClientSessions sessions;

        Factory(ClientSessions sessions) {
            this.sessions = requireNonNull(sessions, "sessions is null");
        }

        @Override
        public SessionMiddleware onCallStarted(CallInfo info, CallHeaders incomingHeaders, RequestContext context) {
            return new SessionMiddleware(sessions, sessionCookie(incomingHeaders));
        }

        private static Optional<String> sessionCookie(CallHeaders headers) {
            Iterable<String> values = headers.getAll("cookie");
            if (values == null) {
                return Optional.empty();
            }
            for (String header : values) {
                for (String cookie : header.split(";")) {
                    String trimmed = cookie.trim();
                    if (trimmed.startsWith(COOKIE + "=") && trimmed.length() > COOKIE.length() + 1) {
                        return Optional.of(trimmed.substring(COOKIE.length() + 1));
                    }
                }
            }
            return Optional.empty();
        }
    }
}
