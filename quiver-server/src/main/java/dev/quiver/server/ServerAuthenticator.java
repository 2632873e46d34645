package dev.quiver.server;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.auth2.Auth2Constants;
import org.apache.arrow.flight.auth2.AuthUtilities;
import org.apache.arrow.flight.auth2.CallHeaderAuthenticator;

/**
 * Who may call the server. A client logs in with Flight's basic authentication (user and password,
 * checked against the {@link UsersFile}) and gets a bearer token of its own, which its later calls
 * carry (what the Flight SQL JDBC driver does with {@code user=...&password=...}); or it presents the
 * server's static token ({@code token=...}), as user {@value #TOKEN_USER}. Any other call is refused
 * with UNAUTHENTICATED. A token unused for the idle time is forgotten: the client logs in again.
 */
final class ServerAuthenticator implements CallHeaderAuthenticator {
    /** The user a call with the static token runs as. */
    static final String TOKEN_USER = "token";

    private final Optional<UsersFile> users;
    private final Optional<String> staticToken;
    private final long idleNanos;
    private final Map<String, Issued> issued = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();

    private record Issued(String user, long lastUsedNanos) {}

    ServerAuthenticator(Optional<UsersFile> users, Optional<String> staticToken, Duration idle) {
        this.users = requireNonNull(users, "users is null");
        this.staticToken = requireNonNull(staticToken, "staticToken is null");
        this.idleNanos = requireNonNull(idle, "idle is null").toNanos();
    }

    @Override
    public AuthResult authenticate(CallHeaders headers) {
        String bearer = AuthUtilities.getValueFromAuthHeader(headers, Auth2Constants.BEARER_PREFIX);
        if (bearer != null) {
            return result(bearerUser(bearer), Optional.empty());
        }
        String basic = AuthUtilities.getValueFromAuthHeader(headers, Auth2Constants.BASIC_PREFIX);
        if (basic != null && users.isPresent()) {
            String user = login(basic);
            byte[] bytes = new byte[32];
            random.nextBytes(bytes);
            String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
            forgetIdle();
            issued.put(token, new Issued(user, System.nanoTime()));
            return result(user, Optional.of(token));
        }
        throw refused("this server needs a user and password" + (staticToken.isPresent() ? " or its token" : ""));
    }

    private String bearerUser(String bearer) {
        if (staticToken.isPresent() && MessageDigest.isEqual(staticToken.get().getBytes(StandardCharsets.UTF_8), bearer.getBytes(StandardCharsets.UTF_8))) {
            return TOKEN_USER;
        }
        Issued known = issued.computeIfPresent(bearer, (token, entry) -> System.nanoTime() - entry.lastUsedNanos() > idleNanos
                ? null : new Issued(entry.user(), System.nanoTime()));
        if (known == null) {
            throw refused("the token is not valid (it expired, or the server restarted): log in again");
        }
        return known.user();
    }

    private String login(String basic) {
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(basic), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw refused("the basic credentials are not Base64");
        }
        int colon = decoded.indexOf(':');
        String user = colon < 0 ? decoded : decoded.substring(0, colon);
        char[] password = colon < 0 ? new char[0] : decoded.substring(colon + 1).toCharArray();
        if (!users.orElseThrow().verify(user, password)) {
            throw refused("wrong user or password");
        }
        return user;
    }

    private void forgetIdle() {
        long now = System.nanoTime();
        issued.values().removeIf(entry -> now - entry.lastUsedNanos() > idleNanos);
    }

    private static FlightRuntimeException refused(String why) {
        return CallStatus.UNAUTHENTICATED.withDescription("UNAUTHENTICATED: " + why).toRuntimeException();
    }

    private static AuthResult result(String user, Optional<String> newToken) {
        return new AuthResult() {
            @Override
            public String getPeerIdentity() {
                return user;
            }

            @Override
            public void appendToOutgoingHeaders(CallHeaders outgoingHeaders) {
                newToken.ifPresent(token -> outgoingHeaders.insert(Auth2Constants.AUTHORIZATION_HEADER, Auth2Constants.BEARER_PREFIX + token));
            }
        };
    }
}
