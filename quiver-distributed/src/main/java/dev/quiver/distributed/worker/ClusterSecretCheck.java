package dev.quiver.distributed.worker;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.protocol.ClusterSecret;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallInfo;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightServerMiddleware;
import org.apache.arrow.flight.RequestContext;

/** Refuses every call to a worker that does not carry its cluster's token ({@link ClusterSecret}). */
final class ClusterSecretCheck implements FlightServerMiddleware {
    static final Key<ClusterSecretCheck> KEY = Key.of("quiver-cluster-secret");
    private static final ClusterSecretCheck PASSED = new ClusterSecretCheck();

    private ClusterSecretCheck() {}

    @Override
    public void onBeforeSendingHeaders(CallHeaders outgoingHeaders) {}

    @Override
    public void onCallCompleted(CallStatus status) {}

    @Override
    public void onCallErrored(Throwable err) {}

    /** Checks each call's header before the call runs. */
    static final class Factory implements FlightServerMiddleware.Factory<ClusterSecretCheck> {
        private final ClusterSecret secret;
        private final String worker;

        Factory(ClusterSecret secret, String worker) {
            this.secret = requireNonNull(secret, "secret is null");
            this.worker = requireNonNull(worker, "worker is null");
        }

        @Override
        public ClusterSecretCheck onCallStarted(CallInfo info, CallHeaders incomingHeaders, RequestContext context) {
            String presented = incomingHeaders.get(ClusterSecret.HEADER);
            if (!secret.accepts(presented)) {
                throw CallStatus.UNAUTHENTICATED.withDescription("Worker " + worker + " refuses a call " + (presented == null ? "without" : "with a wrong")
                        + " cluster token: give the coordinator the cluster secret this worker was started with (--cluster-secret-file)")
                        .toRuntimeException();
            }
            return PASSED;
        }
    }
}
