/**
 * sdm as a debug adapter (the Debug Adapter Protocol, through Eclipse LSP4J's bindings), for VS
 * Code and every other DAP client: rank groups as threads, merged stacks, values per class of
 * ranks, and the console language in the Debug Console. {@link
 * io.sdmfabric.frontend.dap.SdmDebugAdapter} says which part answers each request.
 */
package io.sdmfabric.frontend.dap;
