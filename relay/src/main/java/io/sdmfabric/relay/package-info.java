/**
 * The login node's relay ({@code sdm relay}): forwards TCP connections from compute nodes to the
 * front-end, byte for byte, bounded; authentication stays end to end.
 */
package io.sdmfabric.relay;
