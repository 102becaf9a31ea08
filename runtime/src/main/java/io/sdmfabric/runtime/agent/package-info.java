/**
 * The agent JVM, one per node: joins the master's cluster, proves the session secret, and serves
 * its node's ranks (from the rank spool, by pid, from a Slurm step, or simulated) with a server
 * actor each. Its entry point is {@link io.sdmfabric.runtime.agent.AgentCommand#main}.
 */
package io.sdmfabric.runtime.agent;
