package io.sdmfabric.frontend.dap;

import org.eclipse.lsp4j.jsonrpc.ResponseErrorException;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseError;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;

/**
 * A request the adapter refuses, and why, as the client shows it: LSP4J answers the request with
 * the error's message when a handler throws one.
 */
final class RequestFailure {
  private RequestFailure() {}

  /** The error that refuses a request with {@code message}. */
  static ResponseErrorException of(String message) {
    return new ResponseErrorException(
        new ResponseError(ResponseErrorCode.InvalidRequest, message, null));
  }

  /** The first message along {@code e}'s causes, else what {@code e} is. */
  static String message(Throwable e) {
    Throwable cause = e;
    while (cause.getCause() != null && cause.getMessage() == null) {
      cause = cause.getCause();
    }
    return cause.getMessage() == null ? cause.toString() : cause.getMessage();
  }
}
