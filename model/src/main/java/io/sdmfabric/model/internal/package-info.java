/** Helpers of the model module that other modules must not use; they may change without notice. */
package io.sdmfabric.model.internal;
