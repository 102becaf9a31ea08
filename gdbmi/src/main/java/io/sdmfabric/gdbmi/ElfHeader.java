package io.sdmfabric.gdbmi;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** What gdb's attach needs to know of an executable before it runs: whether it is dynamic. */
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
      ByteBuffer ident = read(f, 0, 64);
      if (ident.getInt(0) != 0x7f454c46) {
        throw new IOException(program + " is not an ELF executable");
      }
      boolean wide = ident.get(4) == 2;
      ident.order(ident.get(5) == 2 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
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
