package io.sdmfabric.gdbmi.internal;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;

/**
 * The few C library calls a pseudo-terminal and {@link Signals} need. Calls that fail throw {@link
 * LastErrorException} with errno. {@code size_t}/{@code ssize_t} are Java {@code long}: the fabric
 * runs on 64-bit Linux only.
 */
interface LibC extends Library {
  LibC INSTANCE = Native.load("c", LibC.class);

  int O_RDWR = 2;
  int O_NOCTTY = 0400;
  int TCSANOW = 0;
  short POLLIN = 1;

  int posix_openpt(int flags) throws LastErrorException;

  int grantpt(int fd) throws LastErrorException;

  int unlockpt(int fd) throws LastErrorException;

  int ptsname_r(int fd, byte[] buf, long buflen) throws LastErrorException;

  int open(String path, int flags) throws LastErrorException;

  int close(int fd) throws LastErrorException;

  int pipe2(int[] fds, int flags) throws LastErrorException;

  long read(int fd, byte[] buf, long count) throws LastErrorException;

  long write(int fd, byte[] buf, long count) throws LastErrorException;

  int poll(byte[] fds, long nfds, int timeoutMs) throws LastErrorException;

  int tcgetattr(int fd, byte[] termios) throws LastErrorException;

  int tcsetattr(int fd, int optionalActions, byte[] termios) throws LastErrorException;

  int kill(int pid, int sig) throws LastErrorException;
}
