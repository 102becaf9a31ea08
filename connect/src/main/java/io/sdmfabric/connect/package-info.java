/**
 * Reverse connect: the batch job asks a front-end to debug it through request files in the user's
 * private directory, then dials it ({@link io.sdmfabric.connect.ReverseConnect}); the front-end
 * side lists, accepts and serves requests ({@link io.sdmfabric.connect.ListenConsole}, {@link
 * io.sdmfabric.connect.FrontEndListener}).
 */
package io.sdmfabric.connect;
