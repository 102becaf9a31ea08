/**
 * Front-ends of a debug session: the console language ({@link io.sdmfabric.frontend.ConsoleParser})
 * that the terminal, scripts and tests share. Front-ends speak to a session only through the wire's
 * commands and events, so that the same console works in the master's JVM and, later, over the
 * front-end protocol.
 */
package io.sdmfabric.frontend;
