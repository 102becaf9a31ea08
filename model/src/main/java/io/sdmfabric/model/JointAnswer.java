package io.sdmfabric.model;

import java.util.List;

/**
 * One distinct answer of a request put to several debuggers at once ({@link JointRequests}), with
 * the debuggers that gave it: their positions in the request's list of members. Every member is in
 * exactly one answer.
 */
public sealed interface JointAnswer<T> {

  /** Positions, in the request's list, of the members this answer is for; never empty. */
  List<Integer> members();

  /** The members' result, equal for each. */
  record Answered<T>(List<Integer> members, T result) implements JointAnswer<T> {
    public Answered {
      members = checked(members);
    }
  }

  /**
   * The members' request failed, each with the error its own request would have failed with ({@link
   * DebuggerException} with the debugger's words).
   */
  record Failed<T>(List<Integer> members, String message) implements JointAnswer<T> {
    public Failed {
      members = checked(members);
      if (message == null) {
        throw new NullPointerException("message");
      }
    }
  }

  /**
   * The members the joint request could not answer as their own would (not stopped, detached, a
   * value only their own request reads): ask each on its own.
   */
  record AskAlone<T>(List<Integer> members) implements JointAnswer<T> {
    public AskAlone {
      members = checked(members);
    }
  }

  private static List<Integer> checked(List<Integer> members) {
    if (members.isEmpty()) {
      throw new IllegalArgumentException("an answer is for at least one member");
    }
    return List.copyOf(members);
  }
}
