/** Benchmarks: JMH micro-benchmarks and scale runners that print tables. */
package io.sdmfabric.bench;
