/**
 * The {@code sdm} command: one picocli class per subcommand, each parsing its options, calling a
 * service of the modules below ({@code runtime}, {@code connect}, {@code relay}, the workflows of
 * {@code frontend}) and mapping the outcome to an exit status. No session or protocol work here.
 */
package io.sdmfabric.cli;
