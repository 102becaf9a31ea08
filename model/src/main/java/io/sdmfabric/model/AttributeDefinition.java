package io.sdmfabric.model;

import java.util.Objects;

/**
 * Declares a typed attribute of runtime model elements: its key ({@code id}), value type,
 * human-readable name and description, and the value an element reports while the attribute is
 * unset. Definitions are compared by all components, so use the shared constants of {@link
 * Attributes} (or your own constants) rather than creating equal definitions ad hoc.
 *
 * @param id stable key, for example {@code "pid"}; not blank
 * @param type the value type; a reference type such as {@code Integer.class}, not {@code int.class}
 * @param name short label for user interfaces; not blank
 * @param description what the value means; may be empty
 * @param defaultValue reported while the attribute is unset; an instance of {@code type}
 * @param <T> the value type
 */
public record AttributeDefinition<T>(
    String id, Class<T> type, String name, String description, T defaultValue) {

  public AttributeDefinition {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(defaultValue, "defaultValue");
    if (id.isBlank()) {
      throw new IllegalArgumentException("attribute id must not be blank");
    }
    if (name.isBlank()) {
      throw new IllegalArgumentException("attribute name must not be blank: " + id);
    }
    if (type.isPrimitive()) {
      // isInstance is always false for primitive classes, so no value could ever be set.
      throw new IllegalArgumentException(
          "attribute " + id + ": use the wrapper type instead of " + type);
    }
    if (!type.isInstance(defaultValue)) {
      throw new IllegalArgumentException(
          "attribute "
              + id
              + ": default value "
              + defaultValue
              + " is a "
              + defaultValue.getClass().getName()
              + ", not a "
              + type.getName());
    }
  }

  /**
   * Casts {@code value} to this attribute's type.
   *
   * @throws IllegalArgumentException if {@code value} is not an instance of {@link #type()}, which
   *     only unchecked or raw-typed code can cause
   */
  public T cast(Object value) {
    Objects.requireNonNull(value, "value");
    if (!type.isInstance(value)) {
      throw new IllegalArgumentException(
          "attribute "
              + id
              + " takes a "
              + type.getName()
              + ", not a "
              + value.getClass().getName()
              + " ("
              + value
              + ")");
    }
    return type.cast(value);
  }
}
