/** The {@code sdm} command and the launchers that start a debug session. */
package io.sdmfabric.launch;
