package dev.quiver.distributed.protocol;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.engine.config.Settings;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.PhysicalExpr;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The JSON documents of the worker protocol (docs/distributed.md, "Wire format"): the task request
 * that opens a control stream, the {@link ControlMessage}s on it, and the {@link DataTicket} of a
 * DoGet. Plans and hash-key expressions are written with a {@link PlanTreeCodec} (the plan codec), so both sides need
 * codecs for the same custom nodes. Thread-safe.
 */
public final class WireFormat {
    /** Bumped when a document changes incompatibly; a request of another protocol is refused. */
    public static final int PROTOCOL = 1;
    /** The Flight action a worker answers with its {@link WorkerInfo}. */
    public static final String INFO_ACTION = "worker-info";

    private final PlanTreeCodec codec;
    private final ObjectMapper mapper = new ObjectMapper();

    public WireFormat(PlanTreeCodec codec) {
        this.codec = requireNonNull(codec, "codec is null");
    }

    // ---- task request (the control stream's descriptor) ----

    public byte[] encodeRequest(TaskRequest request) {
        ObjectNode node = mapper.createObjectNode();
        node.put("protocol", PROTOCOL);
        node.put("version", request.version());
        node.set("task", taskId(request.taskId()));
        request.head().ifPresent(head -> node.set("head", head(head)));
        node.set("settings", settings(request.settings()));
        node.set("plan", codec.toTree(request.plan()));
        return write(node);
    }

    /**
     * The request in {@code bytes}. The version is checked before anything else is decoded, so a
     * coordinator of another version gets {@link ErrorCode#WORKER_VERSION_MISMATCH} rather than a
     * plan it happens not to understand.
     */
    public TaskRequest decodeRequest(byte[] bytes, String workerVersion) {
        JsonNode node = read(bytes);
        String version = node.path("version").asText("");
        int protocol = node.path("protocol").asInt(-1);
        if (!version.equals(workerVersion) || protocol != PROTOCOL) {
            throw new QuiverException(ErrorCode.WORKER_VERSION_MISMATCH, "the coordinator runs Quiver " + (version.isEmpty() ? "(unknown)" : version)
                    + " (protocol " + protocol + "), this worker runs Quiver " + workerVersion + " (protocol " + PROTOCOL
                    + "): start workers and coordinator from the same version");
        }
        TaskId task = taskId(required(node, "task"));
        Optional<ProducerHead> head = node.hasNonNull("head") ? Optional.of(head(node.get("head"))) : Optional.empty();
        return new TaskRequest(task, codec.fromTree(required(node, "plan")), head, settings(required(node, "settings")), version);
    }

    /** The settings typed: JSON booleans, numbers and strings as each setting's type writes them. */
    private ObjectNode settings(Settings settings) {
        ObjectNode node = mapper.createObjectNode();
        settings.toWire().forEach((name, value) -> {
            if (value instanceof Boolean b) {
                node.put(name, b);
            } else if (value instanceof Long l) {
                node.put(name, l);
            } else {
                node.put(name, (String) value);
            }
        });
        return node;
    }

    /** The settings of a request: a value of the wrong JSON kind or an unknown name is INVALID_CONFIGURATION naming the setting. */
    private static Settings settings(JsonNode node) {
        Map<String, Object> wire = new LinkedHashMap<>();
        node.fields().forEachRemaining(e -> {
            JsonNode value = e.getValue();
            wire.put(e.getKey(), value.isBoolean() ? value.booleanValue() : value.canConvertToLong() && value.isIntegralNumber() ? value.longValue()
                    : value.isTextual() ? value.textValue() : value.toString());
        });
        return Settings.fromWire(DistributedSettings.TASK_REGISTRY, wire);
    }

    // ---- control messages ----

    public byte[] encode(ControlMessage message) {
        ObjectNode node = mapper.createObjectNode();
        if (message instanceof ControlMessage.Ack ack) {
            node.put("type", "ack");
            node.set("task", taskId(ack.task()));
        } else if (message instanceof ControlMessage.StateChanged changed) {
            node.put("type", "state");
            node.set("task", taskId(changed.task()));
            node.put("state", changed.state().name());
            changed.error().ifPresent(error -> node.set("error", error(error)));
        } else if (message instanceof ControlMessage.Sample sample) {
            node.put("type", "sample");
            node.set("task", taskId(sample.task()));
            node.set("sample", mapper.valueToTree(sample.sample()));
        } else if (message instanceof ControlMessage.FinalReport report) {
            node.put("type", "report");
            node.set("report", report(report.report()));
        } else {
            node.put("type", "heartbeat");
        }
        return write(node);
    }

    /**
     * {@code bytes} in a buffer of {@code allocator} to send as a control stream's {@code app_metadata};
     * whoever puts it on the stream takes ownership.
     */
    public static ArrowBuf metadata(BufferAllocator allocator, byte[] bytes) {
        ArrowBuf buf = allocator.buffer(bytes.length);
        try {
            buf.setBytes(0, bytes);
            // Flight sends readableBytes(): a buffer with writerIndex 0 would silently vanish
            buf.writerIndex(bytes.length);
            return buf;
        } catch (RuntimeException e) {
            buf.close();
            throw e;
        }
    }

    public ControlMessage decodeControl(byte[] bytes) {
        JsonNode node = read(bytes);
        String type = required(node, "type").asText();
        return switch (type) {
            case "ack" -> new ControlMessage.Ack(taskId(required(node, "task")));
            case "state" -> new ControlMessage.StateChanged(taskId(required(node, "task")), state(required(node, "state")),
                    node.hasNonNull("error") ? Optional.of(error(node.get("error"))) : Optional.empty());
            case "heartbeat" -> new ControlMessage.Heartbeat();
            case "sample" -> new ControlMessage.Sample(taskId(required(node, "task")), sample(required(node, "sample")));
            case "report" -> new ControlMessage.FinalReport(report(required(node, "report")));
            default -> throw bad("unknown control message type '" + type + "'");
        };
    }

    private PartitionSample sample(JsonNode node) {
        try {
            return mapper.treeToValue(node, PartitionSample.class);
        } catch (IOException | IllegalArgumentException e) {
            throw bad("a partition sample that cannot be read: " + e.getMessage());
        }
    }

    // ---- data tickets ----

    public byte[] encodeTicket(DataTicket ticket) {
        ObjectNode node = mapper.createObjectNode();
        node.set("task", taskId(ticket.producerTask()));
        node.put("partition", ticket.partition());
        node.put("consumer", ticket.consumerTaskIndex());
        node.set("head", head(ticket.head()));
        return write(node);
    }

    public DataTicket decodeTicket(byte[] bytes) {
        JsonNode node = read(bytes);
        return new DataTicket(taskId(required(node, "task")), required(node, "partition").asInt(), head(required(node, "head")),
                required(node, "consumer").asInt());
    }

    /** The head as JSON: two heads are the same head exactly when these trees are equal. */
    public JsonNode head(ProducerHead head) {
        ObjectNode node = mapper.createObjectNode();
        if (head instanceof ProducerHead.Shuffle shuffle) {
            node.put("kind", "shuffle");
            ArrayNode keys = node.putArray("keys");
            shuffle.keys().forEach(key -> keys.add(codec.exprToTree(key)));
            node.put("partitionsPerConsumerTask", shuffle.partitionsPerConsumerTask());
            node.put("consumerTasks", shuffle.consumerTasks());
        } else if (head instanceof ProducerHead.Broadcast broadcast) {
            node.put("kind", "broadcast");
            node.put("consumerTasks", broadcast.consumerTasks());
        } else {
            node.put("kind", "coalesce");
        }
        return node;
    }

    public ProducerHead head(JsonNode node) {
        String kind = required(node, "kind").asText();
        return switch (kind) {
            case "shuffle" -> {
                List<PhysicalExpr> keys = new ArrayList<>();
                required(node, "keys").forEach(key -> keys.add(codec.exprFromTree(key)));
                yield new ProducerHead.Shuffle(keys, required(node, "partitionsPerConsumerTask").asInt(), required(node, "consumerTasks").asInt());
            }
            case "coalesce" -> new ProducerHead.Coalesce();
            case "broadcast" -> new ProducerHead.Broadcast(required(node, "consumerTasks").asInt());
            default -> throw bad("unknown producer head kind '" + kind + "'");
        };
    }

    // ---- worker info (the worker-info action's answer) ----

    public byte[] encodeInfo(WorkerInfo info) {
        ObjectNode node = mapper.createObjectNode();
        node.put("address", info.address().toString());
        node.put("version", info.version());
        node.put("cores", info.cores());
        node.put("memoryLimitBytes", info.memoryLimitBytes());
        return write(node);
    }

    public WorkerInfo decodeInfo(byte[] bytes) {
        JsonNode node = read(bytes);
        return new WorkerInfo(WorkerAddress.parse(required(node, "address").asText()), required(node, "version").asText(),
                required(node, "cores").asInt(), required(node, "memoryLimitBytes").asLong());
    }

    // ---- errors (also carried by Flight error metadata) ----

    /** The Flight error-metadata key whose value is the numeric {@link ErrorCode#code()} of a failure. */
    public static final String ERROR_CODE_KEY = "quiver-error-code";

    private ObjectNode error(TaskError error) {
        ObjectNode node = mapper.createObjectNode();
        node.put("code", error.code().code());
        node.put("name", error.code().name());
        node.put("message", error.message());
        return node;
    }

    private TaskError error(JsonNode node) {
        return new TaskError(ErrorCode.fromCode(required(node, "code").asInt()), required(node, "message").asText());
    }

    private ObjectNode report(TaskReport report) {
        ObjectNode node = mapper.createObjectNode();
        node.set("task", taskId(report.taskId()));
        node.put("worker", report.worker().toString());
        node.put("state", report.state().name());
        ArrayNode metrics = node.putArray("metrics");
        for (OperatorMetricsSnapshot m : report.metrics()) {
            ObjectNode operator = metrics.addObject().put("node", m.nodeIndex()).put("name", m.name()).put("outputRows", m.outputRows())
                    .put("outputBytes", m.outputBytes()).put("elapsedComputeNanos", m.elapsedComputeNanos())
                    .put("peakMemoryBytes", m.peakMemoryBytes()).put("summedPeakMemoryBytes", m.summedPeakMemoryBytes());
            if (!m.counters().isEmpty()) {
                ObjectNode counters = operator.putObject("counters");
                m.counters().forEach(counters::put);
            }
        }
        report.error().ifPresent(error -> node.set("error", error(error)));
        return node;
    }

    private TaskReport report(JsonNode node) {
        List<OperatorMetricsSnapshot> metrics = new ArrayList<>();
        for (JsonNode m : required(node, "metrics")) {
            Map<String, Long> counters = new TreeMap<>();
            m.path("counters").fields().forEachRemaining(counter -> counters.put(counter.getKey(), counter.getValue().asLong()));
            metrics.add(new OperatorMetricsSnapshot(m.path("node").asInt(), m.path("name").asText(), m.path("outputRows").asLong(),
                    m.path("outputBytes").asLong(), m.path("elapsedComputeNanos").asLong(), m.path("peakMemoryBytes").asLong(),
                    m.path("summedPeakMemoryBytes").asLong(), counters));
        }
        return new TaskReport(taskId(required(node, "task")), WorkerAddress.parse(required(node, "worker").asText()), state(required(node, "state")),
                metrics, node.hasNonNull("error") ? Optional.of(error(node.get("error"))) : Optional.empty());
    }

    private ObjectNode taskId(TaskId id) {
        ObjectNode node = mapper.createObjectNode();
        node.put("query", id.queryId());
        node.put("stage", id.stageId());
        node.put("task", id.taskIndex());
        return node;
    }

    private static TaskId taskId(JsonNode node) {
        return new TaskId(required(node, "query").asText(), required(node, "stage").asInt(), required(node, "task").asInt());
    }

    private static TaskState state(JsonNode node) {
        try {
            return TaskState.valueOf(node.asText());
        } catch (IllegalArgumentException e) {
            throw bad("unknown task state '" + node.asText() + "'");
        }
    }

    private static JsonNode required(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            throw bad("a message lacks \"" + field + "\"");
        }
        return value;
    }

    private byte[] write(JsonNode node) {
        try {
            return mapper.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.INTERNAL_ERROR, "cannot write a worker protocol message: " + e.getMessage(), e);
        }
    }

    private JsonNode read(byte[] bytes) {
        try {
            JsonNode node = mapper.readTree(bytes);
            if (node == null || !node.isObject()) {
                throw bad("a message is not a JSON object");
            }
            return node;
        } catch (IOException e) {
            throw bad("a message is not valid JSON: " + e.getMessage());
        }
    }

    private static QuiverException bad(String problem) {
        return new QuiverException(ErrorCode.INTERNAL_ERROR, "worker protocol: " + problem);
    }
}
