package dev.quiver.distributed.codec;

import dev.quiver.engine.source.tpch.TpchCatalog;

/**
 * Gives the decoding side the TPC-H catalog its scans draw from, so that a worker can use its own
 * (for example cached) catalog; without one, each decoded scan uses a new uncached catalog.
 */
@FunctionalInterface
public interface TpchCatalogProvider {
    TpchCatalog catalog(double scaleFactor);
}
