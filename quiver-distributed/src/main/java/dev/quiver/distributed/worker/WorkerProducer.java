package dev.quiver.distributed.worker;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.protocol.DataTicket;
import dev.quiver.distributed.protocol.FlightErrors;
import dev.quiver.distributed.protocol.WireFormat;
import org.apache.arrow.flight.Action;
import org.apache.arrow.flight.ActionType;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.NoOpFlightProducer;
import org.apache.arrow.flight.Result;
import org.apache.arrow.flight.Ticket;

/**
 * The Flight endpoints of a worker: the {@value WireFormat#INFO_ACTION} action, one DoExchange control
 * stream per task, and DoGet for task output partitions. Handlers return quickly or run on the
 * worker's own executor (the Flight server is built with it).
 */
final class WorkerProducer extends NoOpFlightProducer {
    /** The action answering the worker's address, version, cores and memory limit (JSON). */

    private final WorkerServer server;

    WorkerProducer(WorkerServer server) {
        this.server = requireNonNull(server, "server is null");
    }

    @Override
    public void doAction(CallContext context, Action action, StreamListener<Result> listener) {
        if (!WireFormat.INFO_ACTION.equals(action.getType())) {
            listener.onError(CallStatus.UNIMPLEMENTED.withDescription("a Quiver worker has no action '" + action.getType() + "'").toRuntimeException());
            return;
        }
        listener.onNext(new Result(server.connections().wire().encodeInfo(server.info())));
        listener.onCompleted();
    }

    @Override
    public void listActions(CallContext context, StreamListener<ActionType> listener) {
        listener.onNext(new ActionType(WireFormat.INFO_ACTION, "the worker's version, cores and memory limit as JSON"));
        listener.onCompleted();
    }

    @Override
    public void doExchange(CallContext context, FlightStream reader, ServerStreamListener writer) {
        new ControlSession(server, reader, writer).run();
    }

    @Override
    public void getStream(CallContext context, Ticket ticket, ServerStreamListener listener) {
        DataTicket data;
        try {
            data = server.connections().wire().decodeTicket(ticket.getBytes());
        } catch (RuntimeException e) {
            listener.error(FlightErrors.toFlight(e));
            return;
        }
        PartitionSender sender = new PartitionSender(server, data, listener);
        server.executor().execute("send-" + data.producerTask() + "-p" + data.partition() + "-c" + data.consumerTaskIndex(), sender);
    }
}
