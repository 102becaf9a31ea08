#!/usr/bin/env bash
# Open MPI 5 (with its bundled PRRTE and OpenPMIx) for the tests that need a launcher speaking
# the PMIx tool interface (issue #27). Debian 12 has no Open MPI 5 and no PRRTE, so it is built
# once per machine from Debian trixie's source package into a cache keyed by its version:
#
#   source dev/lib/openmpi5.sh      # then: openmpi5_install (exports SDM_OPENMPI5), openmpi5_smoke
#   dev/lib/openmpi5.sh install|smoke|prefix      # by hand
#
# Where things are (never under /tmp: killing an OpenPMIx 5.0.5 server once emptied this
# machine's /tmp, openpmix#3476, so nothing of this script's lives there):
#   $SDM_DEV_CACHE                    /var/cache/sdm-dev as root, else ~/.cache/sdm-dev
#   $SDM_DEV_CACHE/openmpi-5.0.7      the prefix: bin/mpirun, bin/prterun, lib/libpmix.so ...
#                                     It exists only once `make install` succeeded (installed
#                                     into a staging directory first, then renamed).
#   $SDM_DEV_CACHE/openmpi-5.0.7.src  the downloaded source package, kept for a rebuild
#   $SDM_DEV_CACHE/openmpi-5.0.7.build.log   the log of the last build (says so when it fails)
#   $SDM_DEV_CACHE/run.XXXXXX         a smoke check's private directory: the program and the
#                                     temporary directory of its mpirun (removed after)
#
# openmpi5_install: when the prefix is there, only the smoke check (0.3 s here). Otherwise
#   1. fetch (root only): a temporary `deb-src ... trixie main` in its own file under
#      /etc/apt/sources.list.d, apt-get update, `apt-get source -d openmpi=5.0.7-1`, the file
#      removed and apt-get update run again, so that apt's state is as it was;
#   2. unpack the upstream tarball (Debian's patches are not applied: upstream as released);
#   3. configure with the internal PMIx and PRRTE, no Fortran, no OpenSHMEM, no ROMIO;
#   4. make -j2 and make install under nice -n 19 (2 cores, shared with other test runs);
#   5. the smoke check.
# It changes no system default: nothing is installed on the PATH or in ld.so's paths; the
# default mpirun and mpicc stay Open MPI 4.1's. A second caller waits for the first's build
# (flock). Tests find the prefix in $SDM_OPENMPI5 (exported when openmpi5_install succeeds).
#
# Every mpirun this script runs gets its own temporary directory (openmpi5_env) and no PMIx
# system server is ever started.
#
# Sourced by dev/test: no `set -e` here, every function returns a status, and all of it is
# `set -u` safe. Messages go to stderr prefixed [openmpi5]; a failure is one line saying why,
# also left in $OPENMPI5_WHY for the caller.

: "${SDM_OPENMPI5_VERSION:=5.0.7}"      # upstream version: the cache's key
: "${SDM_OPENMPI5_DEBIAN:=$SDM_OPENMPI5_VERSION-1}"   # the trixie source package's version
if [ -z "${SDM_DEV_CACHE:-}" ]; then
  if [ "$(id -u)" -eq 0 ]; then SDM_DEV_CACHE=/var/cache/sdm-dev
  else SDM_DEV_CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/sdm-dev"; fi
fi

_OMPI5_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
_OMPI5_APT_LIST=/etc/apt/sources.list.d/sdm-openmpi5-trixie-src.sources
OPENMPI5_WHY=""
OPENMPI5_BUILT_SECONDS=""   # set when openmpi5_install built (not when it found the cache)

_o5_say() { printf '[openmpi5] %s\n' "$*" >&2; }
_o5_fail() { OPENMPI5_WHY="$*"; printf '[openmpi5] %s\n' "$*" >&2; return 1; }

openmpi5_prefix() { printf '%s/openmpi-%s' "$SDM_DEV_CACHE" "$SDM_OPENMPI5_VERSION"; }

_o5_now() { date +%s.%N; }
_o5_secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
_o5_human() { awk -v s="$1" 'BEGIN { s = int(s + 0.5); if (s >= 60) printf "%d min %d s", s / 60, s % 60; else printf "%d s", s }'; }

# ---------------------------------------------------------------------------------- environment

# Prints the environment (NAME=VALUE lines) under which a command of this Open MPI runs with
# DIR as its only temporary directory: PRRTE's session directories, the PMIx server's
# rendezvous files and Open MPI's own all go there, none to /tmp. As root, PRRTE's and Open
# MPI's run-as-root consent. Use: env $(openmpi5_env DIR) "$SDM_OPENMPI5/bin/mpirun" ...
# Read in the 5.0.7 source: PRRTE takes its session directory's base from prte_tmpdir_base,
# else from TMPDIR (pmix_tmp_directory), and hands it to its PMIx server as PMIX_SERVER_TMPDIR;
# PMIx's system directory (a system server's rendezvous, and where tools look for one) is
# PMIX_SYSTEM_TMPDIR, else TMPDIR. mpirun's --tmpdir is defined in PRRTE 3.0.8's command line
# but nothing reads it (checked: the session directory went to TMPDIR), so the environment is
# what counts; prte_tmpdir_base wins over TMPDIR. Run-as-root: Open MPI's mpirun honours only
# OMPI_ALLOW_RUN_AS_ROOT(_CONFIRM), prterun only PRTE_ALLOW_RUN_AS_ROOT(_CONFIRM); both are set.
openmpi5_env() {
  local dir=$1
  printf '%s\n' "TMPDIR=$dir" "PRTE_MCA_prte_tmpdir_base=$dir" "PMIX_SERVER_TMPDIR=$dir" \
    "PMIX_SYSTEM_TMPDIR=$dir"
  if [ "$(id -u)" -eq 0 ]; then
    printf '%s\n' PRTE_ALLOW_RUN_AS_ROOT=1 PRTE_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
      OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  fi
}

# A private directory for one run: made here, with a mark, so that only it is ever removed.
_o5_rundir() {
  local d
  mkdir -p "$SDM_DEV_CACHE" && d=$(mktemp -d "$SDM_DEV_CACHE/run.XXXXXX") || return 1
  : >"$d/.sdm-openmpi5-run" && printf '%s' "$d"
}

_o5_rm_rundir() {
  [ -n "${1:-}" ] && [ -f "$1/.sdm-openmpi5-run" ] && rm -rf -- "$1"
  return 0
}

# ---------------------------------------------------------------------------------- smoke

# Open MPI 5's mpicc builds examples/mpi_reduce.c and its mpirun (PRRTE's prterun) runs it on
# 4 ranks, oversubscribed, in a private temporary directory: rank 0 prints the wrong total.
openmpi5_smoke() {
  local prefix=${1:-$(openmpi5_prefix)} run out rc want="total = 4, expected 10"
  [ -x "$prefix/bin/mpirun" ] || { _o5_fail "smoke: no $prefix/bin/mpirun"; return 1; }
  run=$(_o5_rundir) || { _o5_fail "smoke: cannot make a directory under $SDM_DEV_CACHE"; return 1; }
  if ! out=$(TMPDIR=$run "$prefix/bin/mpicc" -o "$run/mpi_reduce" "$_OMPI5_REPO/examples/mpi_reduce.c" 2>&1); then
    _o5_rm_rundir "$run"
    _o5_fail "smoke: Open MPI 5's mpicc failed on examples/mpi_reduce.c: $(printf '%s' "$out" | head -n 1)"
    return 1
  fi
  # shellcheck disable=SC2046  # openmpi5_env prints NAME=VALUE words without spaces
  out=$(cd "$run" && env $(openmpi5_env "$run") timeout -k 5 60 \
    "$prefix/bin/mpirun" -n 4 --map-by :OVERSUBSCRIBE ./mpi_reduce 2>&1)
  rc=$?
  _o5_rm_rundir "$run"
  if [ "$rc" -ne 0 ]; then
    _o5_fail "smoke: Open MPI 5's mpirun -n 4 mpi_reduce exited $rc: $(printf '%s' "$out" | grep -v '^ *$' | head -n 1)"
    return 1
  fi
  if [ "$out" != "$want" ]; then
    _o5_fail "smoke: Open MPI 5's mpirun -n 4 mpi_reduce printed '$(printf '%s' "$out" | head -n 1)', not '$want'"
    return 1
  fi
}

# ---------------------------------------------------------------------------------- build

# Downloads the source package into DIR (the .dsc and its tarballs).
_o5_fetch() {
  local dir=$1 log=$2 rc
  [ "$(id -u)" -eq 0 ] || { _o5_fail "cannot fetch the source: not root (apt-get source needs a temporary trixie deb-src line)"; return 1; }
  command -v apt-get >/dev/null 2>&1 || { _o5_fail "cannot fetch the source: no apt-get"; return 1; }
  mkdir -p "$dir" || return 1
  # In a subshell with its own trap, so that the line goes whatever happens to the fetch.
  (
    _o5_restore() { rm -f -- "$_OMPI5_APT_LIST"; apt-get update -qq >>"$log" 2>&1 || echo "apt-get update after removing the trixie line failed" >>"$log"; }
    trap _o5_restore EXIT
    trap 'exit 130' INT TERM
    cat >"$_OMPI5_APT_LIST" <<'EOF'
# Written by sdm's dev/lib/openmpi5.sh for `apt-get source openmpi` and removed right after.
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    apt-get update -qq && cd "$dir" && apt-get source -q -d "openmpi=$SDM_OPENMPI5_DEBIAN"
  ) >>"$log" 2>&1
  rc=$?
  [ -e "$_OMPI5_APT_LIST" ] && rm -f -- "$_OMPI5_APT_LIST"
  [ "$rc" -eq 0 ] || { _o5_fail "apt-get source openmpi=$SDM_OPENMPI5_DEBIAN failed (log: $log): $(grep -E '^(E|Err):' "$log" | tail -n 1)"; return 1; }
}

# Builds into the prefix; run under flock by openmpi5_install. Prints "fetch configure make
# install" seconds on stdout when it succeeds.
_o5_build() {
  local prefix=$1 src="$1.src" work="$1.work" stage="$1.stage" log="$1.build.log"
  local t0 t1 t2 t3 t4 tarball tree fetch_s=0
  : >"$log" || { _o5_fail "cannot write $log"; return 1; }
  _o5_say "building Open MPI $SDM_OPENMPI5_VERSION once into $prefix (log: $log)"
  t0=$(_o5_now)
  tarball=$(ls "$src"/openmpi_"$SDM_OPENMPI5_VERSION".orig.tar.* 2>/dev/null | head -n 1)
  if [ -z "$tarball" ]; then
    _o5_say "fetching the source package openmpi=$SDM_OPENMPI5_DEBIAN from trixie"
    _o5_fetch "$src" "$log" || return 1
    tarball=$(ls "$src"/openmpi_"$SDM_OPENMPI5_VERSION".orig.tar.* 2>/dev/null | head -n 1)
    [ -n "$tarball" ] || { _o5_fail "no openmpi_$SDM_OPENMPI5_VERSION.orig.tar.* in $src after apt-get source (log: $log)"; return 1; }
    fetch_s=$(_o5_secs "$t0" "$(_o5_now)")
  fi
  t1=$(_o5_now)
  rm -rf -- "$work" "$stage" && mkdir -p "$work" || { _o5_fail "cannot make $work"; return 1; }
  tar -xf "$tarball" -C "$work" >>"$log" 2>&1 || { _o5_fail "cannot unpack $tarball (log: $log)"; return 1; }
  tree="$work/openmpi-$SDM_OPENMPI5_VERSION"
  [ -x "$tree/configure" ] || { _o5_fail "no configure in $tree (log: $log)"; return 1; }
  _o5_say "configure (nice -n 19)"
  # Internal PMIx and PRRTE: bookworm's libpmix is 4.2.2, PRRTE 3.0.8 needs 4.2.4 or later.
  # No Fortran, OpenSHMEM or MPI-IO (ROMIO): the tests are C and do no file I/O; it halves the build.
  # --enable-prte-prefix-by-default: mpirun starts the daemons of other nodes from this prefix,
  # which is not on their PATH.
  if ! (cd "$tree" && nice -n 19 ./configure --prefix="$prefix" \
      --with-pmix=internal --with-prrte=internal --enable-prte-prefix-by-default \
      --disable-mpi-fortran --disable-oshmem --disable-io-romio \
      --disable-dependency-tracking --disable-silent-rules) >>"$log" 2>&1; then
    _o5_fail "configure failed (log: $log): $(grep -E 'error:' "$log" | tail -n 1)"; return 1
  fi
  t2=$(_o5_now)
  _o5_say "make -j2 (nice -n 19)"
  if ! (cd "$tree" && nice -n 19 make -j2) >>"$log" 2>&1; then
    _o5_fail "make failed (log: $log): $(grep -E 'error|Error' "$log" | tail -n 1)"; return 1
  fi
  t3=$(_o5_now)
  _o5_say "make install"
  # Into a staging directory (DESTDIR), renamed to the prefix only once all of it is there:
  # a half-built prefix is never taken for a built one.
  if ! (cd "$tree" && nice -n 19 make install DESTDIR="$stage") >>"$log" 2>&1; then
    _o5_fail "make install failed (log: $log): $(grep -E 'error|Error' "$log" | tail -n 1)"; return 1
  fi
  [ -x "$stage$prefix/bin/mpirun" ] || { _o5_fail "make install left no bin/mpirun in $stage$prefix (log: $log)"; return 1; }
  t4=$(_o5_now)
  {
    echo "built $(date -u +%FT%TZ) on $(hostname) ($(nproc) cores) from openmpi=$SDM_OPENMPI5_DEBIAN"
    echo "seconds: fetch $fetch_s configure $(_o5_secs "$t1" "$t2") make $(_o5_secs "$t2" "$t3") install $(_o5_secs "$t3" "$t4")"
  } >"$stage$prefix/.sdm-build"
  mv -T -- "$stage$prefix" "$prefix" || { _o5_fail "cannot rename $stage$prefix to $prefix"; return 1; }
  rm -rf -- "$stage" "$work"
  echo "$fetch_s $(_o5_secs "$t1" "$t2") $(_o5_secs "$t2" "$t3") $(_o5_secs "$t3" "$t4")"
}

# Builds Open MPI 5 when the cache has no prefix, runs the smoke check, and exports
# SDM_OPENMPI5=prefix. Returns non-zero with a one-line reason (and $OPENMPI5_WHY) otherwise.
openmpi5_install() {
  local prefix t0 times lock
  prefix=$(openmpi5_prefix)
  OPENMPI5_WHY=""
  OPENMPI5_BUILT_SECONDS=""
  if [ ! -d "$prefix" ]; then
    command -v gcc >/dev/null 2>&1 && command -v make >/dev/null 2>&1 && command -v flock >/dev/null 2>&1 \
      || { _o5_fail "cannot build Open MPI $SDM_OPENMPI5_VERSION: gcc, make or flock is missing"; return 1; }
    mkdir -p "$SDM_DEV_CACHE" || { _o5_fail "cannot make $SDM_DEV_CACHE"; return 1; }
    lock="$prefix.lock"
    t0=$(_o5_now)
    # The build runs in a subshell holding the lock; one that waited finds the prefix built.
    times=$(
      exec 9>"$lock"
      flock 9
      [ -d "$prefix" ] && exit 0
      _o5_build "$prefix" || { echo "WHY $OPENMPI5_WHY"; exit 1; }
    ) || { OPENMPI5_WHY=${times#WHY }; return 1; }
    if [ -n "$times" ]; then
      OPENMPI5_BUILT_SECONDS=$(_o5_secs "$t0" "$(_o5_now)")
      # shellcheck disable=SC2086
      set -- $times
      _o5_say "built Open MPI $SDM_OPENMPI5_VERSION in $(_o5_human "$OPENMPI5_BUILT_SECONDS") (fetch $1 s, configure $2 s, make $3 s, install $4 s); $(du -sh "$prefix" | cut -f1) in $prefix"
    fi
  fi
  openmpi5_smoke "$prefix" || return 1
  export SDM_OPENMPI5="$prefix"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -u
  case "${1:-install}" in
    install) openmpi5_install && echo "export SDM_OPENMPI5=$SDM_OPENMPI5" ;;
    smoke) openmpi5_smoke ;;
    prefix) openmpi5_prefix; echo ;;
    *) echo "usage: $0 install|smoke|prefix" >&2; exit 2 ;;
  esac
  exit $?
fi
