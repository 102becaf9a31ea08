#!/usr/bin/env python3
"""One gdb over MI with N inferiors of one program, set up as sdm's SharedGdb does, timed by phase.

Usage: gdb_inferiors.py PROGRAM N [--break FUNC] [--no-run] [--settings "name value;..."]
       [--debug-file-directory DIR]   (where gdb finds system libraries' separate debug files;
                                       nowhere by default, as in sdm: SDM_DEBUG_FILE_DIRECTORY)
       [--per-command K]   (K rounds of each command on every inferior, gdb's CPU and wall per
                            inferior, beside sdm's joint sdm-frames and sdm-values: one command
                            for every inferior)

Phases (each a wall-clock time in ms, printed as one JSON line):
  start     gdb started and the startup settings answered (non-stop, mi-async, ...)
  add       N-1 add-inferior (plus the one empty inferior sdm keeps), each with a terminal
            (-inferior-tty-set on a pty of its own) and SDM_RANK/SDM_SIZE in its environment
  file      -file-exec-and-symbols of the program in every inferior
  break     one breakpoint at FUNC, conditioned on $_inferior as SharedBreakpoints does
  run       -exec-run of every inferior at once, until every one has stopped at FUNC
  bt        -stack-list-frames of one thread of every inferior, one after the other
  print     -data-evaluate-expression rank in every inferior
  kill      kill every inferior and exit gdb
It also reports gdb's RSS (VmRSS, kB) after the files are loaded and after all have stopped.
"""
import json
import os
import re
import select
import subprocess
import sys
import time


def main():
    args = sys.argv[1:]
    program, n = os.path.abspath(args[0]), int(args[1])
    func, run, extra, cond, per_command = "compute", True, [], True, 0
    load_at_stop = False
    debug_files = ""
    batched = False  # --batched: a command per inferior, all written at once
    same_thread = False  # --same-thread: every per-command round asks one inferior N times
    i = 2
    while i < len(args):
        if args[i] == "--break":
            func = args[i + 1]
            i += 2
        elif args[i] == "--no-cond":
            cond = False
            i += 1
        elif args[i] == "--per-command":
            per_command = int(args[i + 1])
            i += 2
        elif args[i] == "--sharedlibrary-at-stop":
            load_at_stop = True
            i += 1
        elif args[i] == "--same-thread":
            same_thread = True
            i += 1
        elif args[i] == "--batched":
            batched = True
            i += 1
        elif args[i] == "--no-run":
            run = False
            i += 1
        elif args[i] == "--debug-file-directory":
            debug_files = args[i + 1]
            i += 2
        elif args[i] == "--settings":
            extra = [s.strip() for s in args[i + 1].split(";") if s.strip()]
            i += 2
        else:
            sys.exit("unknown argument " + args[i])
    gdb = Gdb(debug_files)
    out = {"inferiors": n}
    t = time.monotonic()
    ptys = []
    master, slave = os.openpty()
    ptys.append((master, slave))
    for cmd in [
        "-gdb-set non-stop on",
        "-gdb-set mi-async on",
        "-gdb-set pagination off",
        "-gdb-set confirm off",
        "-gdb-set width 0",
        "-gdb-set height 0",
        "-gdb-set breakpoint pending on",
        "-inferior-tty-set " + os.ttyname(slave),
    ] + ["-interpreter-exec console \"%s\"" % s for s in extra]:
        gdb.cmd(cmd)
    out["start_ms"] = ms(t)
    out["start_gdb_cpu_ms"] = cpu_ms(gdb.p.pid)[0]
    t = time.monotonic()
    groups = ["i1"]
    for k in range(1, n):
        if k == 1:
            gdb.cmd("-add-inferior")  # the empty inferior sdm keeps for thread-less commands
        reply = gdb.cmd("-add-inferior")
        g = re.search(r'inferior="(i\d+)"', reply).group(1)
        groups.append(g)
        m, s = os.openpty()
        ptys.append((m, s))
        gdb.cmd("-inferior-tty-set --thread-group %s %s" % (g, os.ttyname(s)))
    for r, g in enumerate(groups):
        gdb.cmd('-interpreter-exec --thread-group %s console "set environment SDM_RANK=%d"' % (g, r))
        gdb.cmd('-interpreter-exec --thread-group %s console "set environment SDM_SIZE=%d"' % (g, n))
    out["add_ms"] = ms(t)
    out["add_gdb_cpu_ms"] = cpu_ms(gdb.p.pid)[0]
    t = time.monotonic()
    for g in groups:
        gdb.cmd("-file-exec-and-symbols --thread-group %s %s" % (g, program))
    out["file_ms"] = ms(t)
    out["file_gdb_cpu_ms"] = cpu_ms(gdb.p.pid)[0]
    out["rss_loaded_kb"] = gdb.rss()
    t = time.monotonic()
    ids = sorted(int(g[1:]) for g in groups)
    if cond:
        gdb.cmd('-break-insert -c "($_inferior >= %d && $_inferior <= %d)" %s'
                % (ids[0], ids[-1], func))
    else:
        gdb.cmd("-break-insert " + func)
    out["break_ms"] = ms(t)
    out["break_gdb_cpu_ms"] = cpu_ms(gdb.p.pid)[0]
    if run:
        t = time.monotonic()
        gdb.t0 = t
        for g in groups:
            gdb.send("-exec-run --thread-group %s" % g)
        stopped = gdb.wait_stops(n)
        if load_at_stop:
            for tid in stopped:
                gdb.cmd('-interpreter-exec --thread %s console "sharedlibrary"' % tid)
        out["run_ms"] = ms(t)
        out["run_bytes_from_gdb"] = gdb.bytes_in
        out["run_records"] = dict(sorted(gdb.kinds.items(), key=lambda kv: -kv[1][1])[:6])
        out["run_gdb_cpu_ms"] = cpu_ms(gdb.p.pid)[0]
        out["first_stop_ms"] = gdb.stop_ms[0]
        out["half_stop_ms"] = gdb.stop_ms[n // 2]
        out["rss_stopped_kb"] = gdb.rss()
        out["stopped_memory"] = gdb.memory()
        t = time.monotonic()
        for tid in stopped:
            gdb.cmd("-stack-list-frames --thread %s" % tid)
        out["bt_ms"] = ms(t)
        out["bt_gdb_cpu_ms"] = cpu_ms(gdb.p.pid)[0]
        t = time.monotonic()
        for tid in stopped:
            gdb.cmd("-data-evaluate-expression --thread %s --frame 1 rank" % tid)
        out["print_ms"] = ms(t)
        if per_command:
            values = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                  "gdbmi/src/main/resources/io/sdmfabric/gdbmi/sdm_values.py")
            gdb.cmd('-interpreter-exec console "source %s"' % os.path.abspath(values))
            out["per_command_us"] = {}
            targets = [stopped[0]] * n if same_thread else stopped
            for name, form in [
                    ("frames", "-stack-list-frames --thread %s"),
                    ("evaluate", "-data-evaluate-expression --thread %s --frame 1 rank"),
                    ("sdm_value", '-interpreter-exec --thread %s --frame 1 console "sdm-value 1 100 rank"'),
                    ("nothing", "-gdb-show --thread %s confirm"),
                    ("cli_nothing", '-interpreter-exec --thread %s console "echo"'),
                    ("python_nothing", '-interpreter-exec --thread %s console "python 0"')]:
                c0, t = cpu_ms(gdb.p.pid)[0], time.monotonic()
                for _ in range(per_command):
                    if batched:
                        toks = gdb.send_all([form % tid for tid in targets])
                    else:
                        toks = [gdb.send(form % tid) for tid in targets]
                    gdb.read_until(lambda l, last=toks[-1]: l.startswith(last + "^"))
                out["per_command_us"][name] = [
                    round((cpu_ms(gdb.p.pid)[0] - c0) * 1000 / per_command / n),
                    round((time.monotonic() - t) * 1e6 / per_command / n)]
            # sdm's joint commands: one command for every inferior, each distinct answer once.
            threads = ",".join(str(tid) for tid in targets)
            frames = ",".join("%s.1" % tid for tid in targets)
            for name, command in [
                    ("joint_sdm_frames", '-interpreter-exec console "sdm-frames 1 %s"' % threads),
                    ("joint_sdm_values",
                     '-interpreter-exec console "sdm-values 1 2 100 %s rank"' % frames)]:
                c0, t = cpu_ms(gdb.p.pid)[0], time.monotonic()
                for _ in range(per_command):
                    gdb.cmd(command)
                    gdb.cmd("-gdb-show sdm-answer")
                out["per_command_us"][name] = [
                    round((cpu_ms(gdb.p.pid)[0] - c0) * 1000 / per_command / n),
                    round((time.monotonic() - t) * 1e6 / per_command / n)]
        out["print_gdb_cpu_ms"] = cpu_ms(gdb.p.pid)[0]
    t = time.monotonic()
    pids = gdb.pids()
    out["programs_cpu_ms"] = sum(cpu_ms(p)[0] for p in pids)
    for p in pids:
        try:
            os.kill(p, 9)
        except ProcessLookupError:
            pass
    gdb.close()
    out["kill_ms"] = ms(t)
    for m, s in ptys:
        os.close(m)
        os.close(s)
    print(json.dumps(out), flush=True)


def cpu_ms(pid):
    """utime + stime of a process, and of its children it has waited for, in ms."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return [int(fields[11]) * 1000 // tick + int(fields[12]) * 1000 // tick,
            int(fields[13]) * 1000 // tick + int(fields[14]) * 1000 // tick]


def ms(t):
    return round((time.monotonic() - t) * 1000, 1)


class Gdb:
    def __init__(self, debug_files):
        # As GdbProcess starts it: standard output line-buffered (gdb 13 writes MI a byte per
        # write otherwise), and separate debug files read from debug_files only.
        line_buffered = (
            "python exec(\"try:\\n import ctypes\\n c = ctypes.CDLL(None)\\n"
            " c.malloc.restype = ctypes.c_void_p\\n"
            " c.setvbuf(ctypes.c_void_p.in_dll(c, 'stdout'), ctypes.c_void_p(c.malloc(65536)),"
            " 1, 65536)\\nexcept Exception:\\n pass\")")
        self.p = subprocess.Popen(
            ["gdb", "--interpreter=mi3", "-nx", "-q", "-iex", line_buffered,
             "-iex", ("set debug-file-directory " + debug_files).strip()],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.buf = b""
        self.token = 0
        self.stops = []
        self.stop_ms = []
        self.bytes_in = 0
        self.kinds = {}
        self.t0 = time.monotonic()
        self.read_until(lambda line: line == "(gdb) ")

    def send(self, cmd):
        self.token += 1
        self.p.stdin.write(("%d%s\n" % (self.token, cmd)).encode())
        self.p.stdin.flush()
        return str(self.token)

    def send_all(self, cmds):
        toks = []
        lines = []
        for c in cmds:
            self.token += 1
            toks.append(str(self.token))
            lines.append("%d%s\n" % (self.token, c))
        self.p.stdin.write("".join(lines).encode())
        self.p.stdin.flush()
        return toks

    def cmd(self, cmd):
        tok = self.send(cmd)
        line = self.read_until(lambda l: l.startswith(tok + "^"))
        if line.startswith(tok + "^error"):
            raise RuntimeError(cmd + " -> " + line)
        return line

    def wait_stops(self, n):
        self.read_until(lambda l: len(self.stops) >= n)
        return self.stops[:n]

    def read_until(self, done):
        while True:
            while b"\n" in self.buf:
                raw, self.buf = self.buf.split(b"\n", 1)
                line = raw.decode(errors="replace")
                kind = re.match(r"[=*~&^]?[a-z-]*", line.lstrip("0123456789")).group(0)
                count, size = self.kinds.get(kind, (0, 0))
                self.kinds[kind] = (count + 1, size + len(raw) + 1)
                if line.startswith("*stopped") and 'reason="breakpoint-hit"' in line:
                    self.stops.append(re.search(r'thread-id="(\d+)"', line).group(1))
                    self.stop_ms.append(ms(self.t0))
                if done(line):
                    return line
            r, _, _ = select.select([self.p.stdout], [], [], 300)
            if not r:
                raise TimeoutError("gdb said nothing for 300 s")
            chunk = os.read(self.p.stdout.fileno(), 1 << 16)
            if not chunk:
                raise EOFError("gdb ended")
            self.buf += chunk
            self.bytes_in += len(chunk)

    def rss(self):
        with open("/proc/%d/status" % self.p.pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def memory(self):
        """Rss, Pss and private kB from smaps_rollup: Rss counts gdb's shared text in full."""
        out = {}
        with open("/proc/%d/smaps_rollup" % self.p.pid) as f:
            for line in f:
                parts = line.split()
                if parts[0] in ("Rss:", "Pss:", "Private_Clean:", "Private_Dirty:"):
                    out[parts[0][:-1]] = int(parts[1])
        return {"rss_kb": out["Rss"], "pss_kb": out["Pss"],
                "private_kb": out["Private_Clean"] + out["Private_Dirty"]}

    def pids(self):
        return [int(p) for p in re.findall(r'pid="(\d+)"', self.cmd("-list-thread-groups"))]

    def close(self):
        try:
            self.p.stdin.write(b"-gdb-exit\n")
            self.p.stdin.flush()
        except BrokenPipeError:
            pass
        try:
            self.p.wait(10)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()


if __name__ == "__main__":
    main()
