/**
 * Local SQL sessions: {@link dev.quiver.session.QuerySession} runs statements over a catalog on
 * one node.
 *
 * <h2>Invariants</h2>
 * <ul>
 * <li>A statement is SQL text split from a script on semicolons outside quotes and comments;
 *     EXPLAIN, SET, CREATE/DROP VIEW are recognised here, everything else goes to the SQL planner.
 * <li>Each query owns a {@link dev.quiver.engine.execution.TaskContext} and a child allocator of
 *     the session's root allocator, both closed with its {@link dev.quiver.session.QueryHandle};
 *     closing finds leaks.
 * <li>A failed query releases everything it held: the session's memory pool returns to what
 *     other running queries hold, and the next statement runs normally.
 * <li>Every failure reaches the caller as a {@link dev.quiver.engine.error.QuiverException};
 *     anything else from below becomes {@code INTERNAL_ERROR}.
 * </ul>
 */
package dev.quiver.session;
