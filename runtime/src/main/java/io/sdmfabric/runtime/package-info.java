/**
 * A debug session's life in this JVM: {@link io.sdmfabric.runtime.MasterSession} and its kinds
 * (embedded; launched and attached, the distributed ones), the master of a distributed session with
 * its secrets, keystore and agent command line, and the child processes it runs. Job launching,
 * attach discovery and the agent JVM are the subpackages {@code launch}, {@code attach} and {@code
 * agent}.
 */
package io.sdmfabric.runtime;
