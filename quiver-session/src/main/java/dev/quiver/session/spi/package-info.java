/**
 * What extensions implement to plug into Quiver: {@link dev.quiver.session.spi.QuiverPlugin}, which
 * contributes tables, task estimators, plan codecs and stage-event handlers to sessions and workers.
 */
package dev.quiver.session.spi;
