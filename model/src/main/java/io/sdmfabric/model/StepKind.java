package io.sdmfabric.model;

/** How far a step goes. */
public enum StepKind {
  /** One source line, entering calls (gdb {@code step}). */
  INTO,
  /** One source line, over calls (gdb {@code next}). */
  OVER,
  /** Until the selected frame returns (gdb {@code finish}). */
  RETURN
}
