/**
 * Operators that move batches between partitions: {@link dev.quiver.engine.operator.exchange.CoalescePartitionsExec},
 * {@link dev.quiver.engine.operator.exchange.RepartitionExec} and
 * {@link dev.quiver.engine.operator.exchange.SortPreservingMergeExec}, and the engine's
 * {@link dev.quiver.engine.operator.exchange.PartitionHash}.
 *
 * <h2>Invariants</h2>
 * <ul>
 * <li>Every input partition an exchange drains runs on its own named thread of the task's
 *     {@link dev.quiver.engine.execution.QuiverExecutor}, started on the first {@code next()} of an
 *     output, never in {@code execute}.</li>
 * <li>Queues between producers and consumers are bounded; a consumer that closes early makes its
 *     producers drop what they would send to it, and closing the last consumer (or the task context)
 *     waits until the producers have closed their input streams, so nothing touches the allocator
 *     afterwards.</li>
 * <li>A producer failure is reported with {@link dev.quiver.engine.execution.TaskContext#fail} and
 *     thrown from the consumers' {@code next()} as the task's first failure, with its error code.</li>
 * <li>Hash repartitioning on any node uses {@link dev.quiver.engine.operator.exchange.PartitionHash}
 *     with its fixed seed: equal keys of any integer width or decimal scale meet in one partition.</li>
 * </ul>
 */
package dev.quiver.engine.operator.exchange;
