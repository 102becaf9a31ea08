/**
 * Front-ends of a debug session: the console language ({@link io.sdmfabric.frontend.ConsoleParser})
 * that the terminal, scripts and tests share. Front-ends speak to a session only through the wire's
 * commands and events, so that the same console works in the master's JVM and over the front-end
 * protocol ({@link io.sdmfabric.frontend.RemoteSession}).
 */
package io.sdmfabric.frontend;
