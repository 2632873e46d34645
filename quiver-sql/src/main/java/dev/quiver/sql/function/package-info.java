/**
 * The engine's {@link dev.quiver.engine.expr.function.FunctionRegistry} as Calcite operators:
 * {@link dev.quiver.sql.function.QuiverOperatorTable} offers every registry function callable by
 * name, with Calcite's standard operators minus the functions the registry replaces;
 * {@link dev.quiver.sql.function.RegistrySqlFunction} checks arguments against the function's
 * signatures and types a call with its return-type rule.
 */
package dev.quiver.sql.function;
