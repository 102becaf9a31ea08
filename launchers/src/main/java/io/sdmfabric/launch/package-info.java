/**
 * The {@code sdm} command, the launchers that start a debug session, and the login node's relay
 * ({@code sdm relay}).
 */
package io.sdmfabric.launch;
