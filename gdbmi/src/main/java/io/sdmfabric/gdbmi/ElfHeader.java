package io.sdmfabric.gdbmi;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * What gdb's attach needs to know of an executable, read from its ELF headers: whether it is
 * dynamic, and whether it carries its debug info.
 */
final class ElfHeader {
  private static final int PT_INTERP = 3;

  private ElfHeader() {}

  /**
   * Whether {@code program} is a dynamically linked ELF executable (it has a program interpreter,
   * the dynamic loader).
   *
   * @throws IOException when it cannot be read or is not ELF
   */
  static boolean isDynamic(Path program) throws IOException {
    try (FileChannel f = FileChannel.open(program, StandardOpenOption.READ)) {
      ByteBuffer ident = header(f, program);
      boolean wide = ident.get(4) == 2;
      long phoff = wide ? ident.getLong(0x20) : Integer.toUnsignedLong(ident.getInt(0x1c));
      int phentsize = Short.toUnsignedInt(ident.getShort(wide ? 0x36 : 0x2a));
      int phnum = Short.toUnsignedInt(ident.getShort(wide ? 0x38 : 0x2c));
      if (phentsize < 4 || phnum == 0) {
        return false;
      }
      ByteBuffer headers = read(f, phoff, phentsize * phnum).order(ident.order());
      for (int i = 0; i < phnum; i++) {
        if (headers.getInt(i * phentsize) == PT_INTERP) {
          return true;
        }
      }
      return false;
    }
  }

  /**
   * Whether {@code program} has a {@code .debug_info} section of its own (a program built with
   * {@code -g} and not stripped). False says nothing of debug info kept in a separate file.
   *
   * @throws IOException when it cannot be read or is not ELF
   */
  static boolean hasDebugInfoSection(Path program) throws IOException {
    try (FileChannel f = FileChannel.open(program, StandardOpenOption.READ)) {
      ByteBuffer ident = header(f, program);
      boolean wide = ident.get(4) == 2;
      long shoff = wide ? ident.getLong(0x28) : Integer.toUnsignedLong(ident.getInt(0x20));
      int shentsize = Short.toUnsignedInt(ident.getShort(wide ? 0x3a : 0x2e));
      int shnum = Short.toUnsignedInt(ident.getShort(wide ? 0x3c : 0x30));
      int shstrndx = Short.toUnsignedInt(ident.getShort(wide ? 0x3e : 0x32));
      if (shoff == 0 || shnum == 0 || shstrndx >= shnum || shentsize < (wide ? 0x40 : 0x28)) {
        return false;
      }
      ByteBuffer sections = read(f, shoff, shentsize * shnum).order(ident.order());
      int names = shstrndx * shentsize;
      long namesAt =
          wide
              ? sections.getLong(names + 0x18)
              : Integer.toUnsignedLong(sections.getInt(names + 0x10));
      long namesSize =
          wide
              ? sections.getLong(names + 0x20)
              : Integer.toUnsignedLong(sections.getInt(names + 0x14));
      if (namesSize <= 0 || namesSize > 1 << 20) {
        return false;
      }
      ByteBuffer strings = read(f, namesAt, (int) namesSize);
      byte[] wanted = ".debug_info\0".getBytes(StandardCharsets.US_ASCII);
      for (int i = 0; i < shnum; i++) {
        int name = sections.getInt(i * shentsize);
        if (name >= 0 && name + wanted.length <= namesSize && matches(strings, name, wanted)) {
          return true;
        }
      }
      return false;
    }
  }

  /**
   * The ELF header, in the file's byte order (its byte 4 says 64-bit when 2).
   *
   * @throws IOException when the file is not ELF
   */
  private static ByteBuffer header(FileChannel f, Path program) throws IOException {
    ByteBuffer ident = read(f, 0, 64);
    if (ident.getInt(0) != 0x7f454c46) {
      throw new IOException(program + " is not an ELF executable");
    }
    return ident.order(ident.get(5) == 2 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
  }

  private static boolean matches(ByteBuffer strings, int at, byte[] wanted) {
    for (int i = 0; i < wanted.length; i++) {
      if (strings.get(at + i) != wanted[i]) {
        return false;
      }
    }
    return true;
  }

  private static ByteBuffer read(FileChannel f, long at, int size) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(size);
    while (b.hasRemaining()) {
      if (f.read(b, at + b.position()) < 0) {
        throw new IOException("truncated ELF file");
      }
    }
    return b.flip().order(ByteOrder.BIG_ENDIAN);
  }
}
