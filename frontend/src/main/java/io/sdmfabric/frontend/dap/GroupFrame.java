package io.sdmfabric.frontend.dap;

/**
 * A frame of a DAP thread: level {@code level} (0 is the innermost) of the stack that thread {@code
 * threadId}'s ranks share. A DAP frame id stands for one ({@link GroupStacks} gives them out), and
 * every variable reference names the frame it reads in.
 */
record GroupFrame(int threadId, int level) {}
