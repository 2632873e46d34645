/** What users of the coordinator implement or receive: query events and their listener. */
package dev.quiver.distributed.coordinator.spi;
