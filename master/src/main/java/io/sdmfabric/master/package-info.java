/** The master: one session actor per debug session, command tracking and front-end gateways. */
package io.sdmfabric.master;
