/**
 * Quiver catalogs as Calcite schemas: {@link dev.quiver.sql.catalog.QuiverSchema} (tables and
 * views, names matched case-insensitively) and {@link dev.quiver.sql.catalog.QuiverTable} (Arrow
 * schema as SQL row type, statistics for the optimizer).
 */
package dev.quiver.sql.catalog;
