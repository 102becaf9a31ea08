/**
 * The wire schema: protobuf messages for commands, events, typed values and rank sets, and the
 * Pekko serializer bindings for messages that cross JVMs.
 */
package io.sdmfabric.wire;
