/**
 * The wire schema: protobuf messages for commands, events, typed values and rank sets, and the
 * Pekko serializer bindings for messages that cross JVMs. Java code builds the messages only
 * through {@link io.sdmfabric.wire.Commands} and {@link io.sdmfabric.wire.EventBodies}, converts
 * model values with {@link io.sdmfabric.wire.Protos}, and reads replies as the sealed {@link
 * io.sdmfabric.wire.Reply}.
 */
package io.sdmfabric.wire;
