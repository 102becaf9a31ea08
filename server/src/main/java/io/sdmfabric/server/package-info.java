/**
 * Server actors: one per rank, arranged as a binomial tree under the master; broadcast, aggregation
 * of replies and the simulated backend.
 */
package io.sdmfabric.server;
