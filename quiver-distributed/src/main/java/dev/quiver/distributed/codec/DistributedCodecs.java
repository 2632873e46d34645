package dev.quiver.distributed.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.quiver.distributed.codec.spi.DecodeContext;
import dev.quiver.distributed.codec.spi.PlanNodeCodec;
import dev.quiver.distributed.operator.BoundaryKind;
import dev.quiver.distributed.operator.SamplerExec;
import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.execution.ExecutionPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Codecs of the distributed layer's own nodes: {@link StageInputExec} with its counts, statistics and binding, and the AQE
 * {@link SamplerExec} that adaptive execution puts on top of a producer task's plan.
 */
final class DistributedCodecs {
    private DistributedCodecs() {}

    static List<PlanNodeCodec<?>> all() {
        return List.of(PlanNodeCodec.of("StageInputExec", StageInputExec.class,
                (n, out, c) -> {
                    out.put("producerStage", n.producerStageId()).put("kind", n.kind().name());
                    out.set("schema", c.schema(n.schema()));
                    out.set("keys", c.exprs(n.keys()));
                    out.put("producerTasks", n.producerTasks()).put("producerPartitions", n.producerPartitions())
                            .put("consumerTasks", n.consumerTasks()).put("partitionsPerConsumerTask", n.partitionsPerConsumerTask());
                    out.set("statistics", StatisticsJson.statistics(n.statistics(), c));
                    n.binding().ifPresent(binding -> {
                        ObjectNode bound = out.putObject("binding");
                        bound.put("queryId", binding.queryId()).put("consumerTask", binding.consumerTaskIndex());
                        ArrayNode workers = bound.putArray("producerWorkers");
                        binding.producerWorkers().forEach(worker -> workers.add(worker.toString()));
                    });
                },
                DistributedCodecs::decodeStageInput),
                PlanNodeCodec.of("SamplerExec", SamplerExec.class,
                        (n, out, c) -> {
                            out.set("keys", c.exprs(n.keys()));
                            out.put("sampleBytesPerPartition", n.sampleBytesPerPartition());
                        },
                        (in, children, c) -> new SamplerExec(OperatorCodecs.only(children, "SamplerExec"), c.exprs(c.required(in, "keys")),
                                c.required(in, "sampleBytesPerPartition").asLong())));
    }

    private static StageInputExec decodeStageInput(JsonNode in, List<ExecutionPlan> children, DecodeContext c) {
        OperatorCodecs.none(children, "StageInputExec");
        Optional<StageInputExec.Binding> binding = Optional.empty();
        if (in.has("binding")) {
            JsonNode bound = in.get("binding");
            List<WorkerAddress> workers = new ArrayList<>();
            for (JsonNode worker : c.required(bound, "producerWorkers")) {
                workers.add(WorkerAddress.parse(worker.asText()));
            }
            binding = Optional.of(new StageInputExec.Binding(c.requiredText(bound, "queryId"), c.requiredInt(bound, "consumerTask"), workers));
        }
        return new StageInputExec(c.requiredInt(in, "producerStage"), BoundaryKind.valueOf(c.requiredText(in, "kind")), c.schema(c.required(in, "schema")),
                c.exprs(c.required(in, "keys")), c.requiredInt(in, "producerTasks"), c.requiredInt(in, "producerPartitions"),
                c.requiredInt(in, "consumerTasks"), c.requiredInt(in, "partitionsPerConsumerTask"), StatisticsJson.statistics(c.required(in, "statistics"), c),
                binding);
    }
}
