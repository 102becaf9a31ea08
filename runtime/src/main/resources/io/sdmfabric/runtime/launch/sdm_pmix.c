/*
 * sdm's PMIx tool helper: the JVM's hands in the PMIx tool interface (the PMIx RFC "Support for
 * Launching Applications Under Debugger Tools"). Built at run time against the launcher's own
 * libpmix, as the MPI wait-records library is built with the job's mpicc. It speaks lines:
 * events on standard output, commands on standard input, a word first, fields by spaces, free
 * text last and percent-escaped (%XX for bytes below 0x21, '%' and above 0x7e).
 *
 *   sdm_pmix launch in-init|on-exec LAUNCHER ARG...     (use case III, indirect launch)
 *     Starts LAUNCHER (mpirun or prterun of PRRTE) paused for this tool, connects to its PMIx
 *     server, lets it spawn the job with the ranks held (in PMIx_Init, or stopped at exec for
 *     programs that are no PMIx clients), and says:
 *       launcher NSPACE          the launcher is up and this tool is its client
 *       job NSPACE SIZE          the job is spawned and held
 *       proc RANK HOST PID       one per rank (the proc table)
 *       procs N                  the table is complete
 *       out RANK CHANNEL TEXT    a line (or piece) of a rank's stdout or stderr
 *       daemons NSPACE           the daemons asked for are spawned
 *       daemon RANK TEXT         a piece of a daemon's output
 *       released                 the job is released
 *       ended STATUS TEXT        the job ended (STATUS 0: normally); the helper then exits
 *       error TEXT               something failed; the helper exits after it
 *     Commands:
 *       daemons ARG...           spawn one daemon per node of the job (PMIX_DEBUGGER_DAEMONS,
 *                                PMIX_DEBUG_TARGET the job), whose command line is ARG...
 *       release                  release the held ranks (PMIX_DEBUGGER_RELEASE)
 *       end                      end the job and exit
 *
 *   sdm_pmix direct PID in-init|on-exec N [--env NAME=VALUE]... PROGRAM ARG...
 *     (use case II, direct launch) Connects to the PMIx server of the running PRRTE DVM (prte)
 *     whose pid is PID and spawns N ranks of PROGRAM there, held, with the variables given set in
 *     their environment; says "launcher PID", then as "launch" from "job" on.
 *
 *   sdm_pmix attach PID|URI [NAMESPACE]    (use case I, attach)
 *     Connects to the PMIx server of the launcher (or PRRTE DVM) whose pid is PID, or at URI (a
 *     PMIx server URI, which has "://" in it), takes its job NAMESPACE (by default the first it
 *     runs), and says "launcher PID|URI", then as above from "job" on; "daemons" as above. The
 *     job is left running when the helper ends.
 *
 *   sdm_pmix local COMMAND ARG...     (in a daemon spawned by "daemons")
 *     Asks the local PMIx server for its node's ranks of the job being debugged, finalizes, and
 *     executes COMMAND ARG... --attach PID=RANK,PID=RANK,... (the same process: PRRTE's daemon
 *     is what runs on; sdm's agent attaches to those ranks).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pmix_tool.h>

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

/* The event lines' stream: standard output as the helper found it. Its fd 1 then becomes
 * /dev/null, so that what the launcher it starts writes there (which inherits it) does not mix
 * in: the ranks' output comes here through PMIx, as "out" lines. */
static FILE *events;

/* Writes one event line: WORD, then the already formatted fields. */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...) {
  va_list ap;
  pthread_mutex_lock(&out_lock);
  va_start(ap, fmt);
  vfprintf(events, fmt, ap);
  va_end(ap);
  fputc('\n', events);
  fflush(events);
  pthread_mutex_unlock(&out_lock);
}

/* TEXT (LEN bytes) percent-escaped into a new string. */
static char *escape(const char *text, size_t len) {
  char *e = malloc(3 * len + 1), *p = e;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)text[i];
    if (c <= 0x20 || c == '%' || c >= 0x7f) {
      p += sprintf(p, "%%%02X", c);
    } else {
      *p++ = (char)c;
    }
  }
  *p = 0;
  return e;
}

static void unescape(char *s) {
  char *out = s;
  for (char *in = s; *in; in++) {
    unsigned int c;
    if (*in == '%' && sscanf(in + 1, "%2x", &c) == 1) {
      *out++ = (char)c;
      in += 2;
    } else {
      *out++ = *in;
    }
  }
  *out = 0;
}

static void fail(const char *what, pmix_status_t rc) {
  char text[512];
  snprintf(text, sizeof text, "%s: %s", what, PMIx_Error_string(rc));
  char *e = escape(text, strlen(text));
  say("error %s", e);
  free(e);
}

/* A one-shot latch, for PMIx's callbacks that run on its own thread. */
typedef struct {
  pthread_mutex_t mutex;
  pthread_cond_t cond;
  bool done;
  pmix_status_t status;
} latch_t;

static void latch_init(latch_t *l) {
  pthread_mutex_init(&l->mutex, NULL);
  pthread_cond_init(&l->cond, NULL);
  l->done = false;
  l->status = PMIX_SUCCESS;
}

static void latch_open(latch_t *l, pmix_status_t status) {
  pthread_mutex_lock(&l->mutex);
  l->status = status;
  l->done = true;
  pthread_cond_broadcast(&l->cond);
  pthread_mutex_unlock(&l->mutex);
}

/* Waits at most SECONDS; PMIX_ERR_TIMEOUT when it did not open. */
static pmix_status_t latch_await(latch_t *l, int seconds) {
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += seconds;
  pthread_mutex_lock(&l->mutex);
  while (!l->done) {
    if (pthread_cond_timedwait(&l->cond, &l->mutex, &until) == ETIMEDOUT) {
      break;
    }
  }
  pmix_status_t status = l->done ? l->status : PMIX_ERR_TIMEOUT;
  pthread_mutex_unlock(&l->mutex);
  return status;
}

static void registered(pmix_status_t status, size_t ref, void *cbdata) {
  (void)ref;
  latch_open((latch_t *)cbdata, status);
}

/* Registers HANDLER for CODE (or every code, with none), named NAME, and waits for it. */
static pmix_status_t on_event(pmix_status_t *code, const char *name, const pmix_proc_t *affected,
                              pmix_notification_fn_t handler) {
  pmix_info_t info[2];
  size_t ninfo = 1;
  PMIX_INFO_LOAD(&info[0], PMIX_EVENT_HDLR_NAME, name, PMIX_STRING);
  if (affected != NULL) {
    PMIX_INFO_LOAD(&info[1], PMIX_EVENT_AFFECTED_PROC, affected, PMIX_PROC);
    ninfo = 2;
  }
  latch_t l;
  latch_init(&l);
  PMIx_Register_event_handler(code, code == NULL ? 0 : 1, info, ninfo, handler, registered, &l);
  pmix_status_t rc = latch_await(&l, 30);
  for (size_t i = 0; i < ninfo; i++) {
    PMIX_INFO_DESTRUCT(&info[i]);
  }
  return rc;
}

static void done_with_event(pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata) {
  if (cbfunc != NULL) {
    cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
  }
}

/* ------------------------------------------------------------------ launch (use case III) */

static pmix_proc_t me;
static pmix_nspace_t launcher_ns;
static pmix_nspace_t job_ns;
static latch_t job_ready;
static latch_t job_ended;

/*
 * The jobs said ready for the debugger, and the one this helper waits for: none named, the first
 * (a launcher this helper started runs one job); named (a job spawned into a DVM, whose other jobs
 * may be ready too, and whose READY_FOR_DEBUG can come before PMIx_Spawn returns), that one.
 */
static pthread_mutex_t ready_lock = PTHREAD_MUTEX_INITIALIZER;
static pmix_nspace_t ready_seen[32];
static int ready_count;
static pmix_nspace_t expected;

/* JOB is ready: it is the job when it is the one expected, or any is. Under ready_lock. */
static void ready(const char *job) {
  if (!job_ready.done && (expected[0] == '\0' || strncmp(job, expected, PMIX_MAX_NSLEN) == 0)) {
    PMIX_LOAD_NSPACE(job_ns, job);
    latch_open(&job_ready, PMIX_SUCCESS);
  }
}

/* The job this helper waits for is NS, which may have been said ready already. */
static void expect(const char *ns) {
  pthread_mutex_lock(&ready_lock);
  PMIX_LOAD_NSPACE(expected, ns);
  for (int i = 0; i < ready_count; i++) {
    ready(ready_seen[i]);
  }
  pthread_mutex_unlock(&ready_lock);
}

static void ready_for_debug(size_t id, pmix_status_t status, const pmix_proc_t *source,
                            pmix_info_t info[], size_t ninfo, pmix_info_t results[],
                            size_t nresults, pmix_event_notification_cbfunc_fn_t cbfunc,
                            void *cbdata) {
  (void)id; (void)status; (void)results; (void)nresults;
  const char *ns = source != NULL ? source->nspace : NULL;
  for (size_t n = 0; n < ninfo; n++) {
    if (PMIX_CHECK_KEY(&info[n], PMIX_NSPACE) && info[n].value.type == PMIX_STRING) {
      ns = info[n].value.data.string;
    }
  }
  if (ns != NULL) {
    pthread_mutex_lock(&ready_lock);
    if (ready_count < 32) {
      PMIX_LOAD_NSPACE(ready_seen[ready_count++], ns);
    }
    ready(ns);
    pthread_mutex_unlock(&ready_lock);
  }
  done_with_event(cbfunc, cbdata);
}

static void job_end(size_t id, pmix_status_t status, const pmix_proc_t *source,
                    pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                    pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata) {
  (void)id; (void)source; (void)results; (void)nresults;
  bool ours = false;
  int term = 0;
  for (size_t n = 0; n < ninfo; n++) {
    if (PMIX_CHECK_KEY(&info[n], PMIX_EVENT_AFFECTED_PROC) && info[n].value.type == PMIX_PROC) {
      /* The handler also hears of jobs that ended before (a DVM's earlier ones), and an empty
       * namespace matches every one: only the job once known is ours. */
      ours = job_ns[0] != '\0' && PMIX_CHECK_NSPACE(info[n].value.data.proc->nspace, job_ns);
    } else if (PMIX_CHECK_KEY(&info[n], PMIX_JOB_TERM_STATUS)) {
      term = info[n].value.data.status;
    }
  }
  if (ours && !job_ended.done) {
    const char *text = term == 0 ? "the job ended" : PMIx_Error_string(term);
    char *e = escape(text, strlen(text));
    say("ended %d %s", term, e);
    free(e);
    latch_open(&job_ended, term);
  }
  (void)status;
  done_with_event(cbfunc, cbdata);
}

static void lost_launcher(size_t id, pmix_status_t status, const pmix_proc_t *source,
                          pmix_info_t info[], size_t ninfo, pmix_info_t results[],
                          size_t nresults, pmix_event_notification_cbfunc_fn_t cbfunc,
                          void *cbdata) {
  (void)id; (void)status; (void)source; (void)info; (void)ninfo; (void)results; (void)nresults;
  if (!job_ended.done) {
    say("ended %d %s", PMIX_ERR_LOST_CONNECTION, "the%20launcher%20is%20gone");
    latch_open(&job_ended, PMIX_ERR_LOST_CONNECTION);
  }
  latch_open(&job_ready, PMIX_ERR_LOST_CONNECTION);
  done_with_event(cbfunc, cbdata);
}

static void iof_registered(pmix_status_t status, size_t ref, void *cbdata) {
  (void)ref;
  latch_open((latch_t *)cbdata, status);
}

static void output(size_t ref, pmix_iof_channel_t channel, pmix_proc_t *source,
                   pmix_byte_object_t *payload, pmix_info_t info[], size_t ninfo) {
  (void)ref; (void)info; (void)ninfo;
  if (payload == NULL || payload->size == 0) {
    return;
  }
  char *e = escape(payload->bytes, payload->size);
  if (PMIX_CHECK_NSPACE(source->nspace, job_ns)) {
    say("out %u %s %s", source->rank, (channel & PMIX_FWD_STDERR_CHANNEL) ? "stderr" : "stdout",
        e);
  } else {
    say("daemon %u %s", source->rank, e);
  }
  free(e);
}

/* Forwards the output of every process of NS here. */
static void pull_output(const char *ns) {
  pmix_proc_t all;
  PMIX_LOAD_PROCID(&all, ns, PMIX_RANK_WILDCARD);
  latch_t iof;
  latch_init(&iof);
  PMIx_IOF_pull(&all, 1, NULL, 0, PMIX_FWD_STDOUT_CHANNEL | PMIX_FWD_STDERR_CHANNEL, output,
                iof_registered, &iof);
  latch_await(&iof, 30);
}

typedef struct {
  latch_t latch;
  pmix_info_t *info;
  size_t ninfo;
} answer_t;

static void answered(pmix_status_t status, pmix_info_t *info, size_t ninfo, void *cbdata,
                     pmix_release_cbfunc_t release_fn, void *release_cbdata) {
  answer_t *a = cbdata;
  if (ninfo > 0) {
    PMIX_INFO_CREATE(a->info, ninfo);
    a->ninfo = ninfo;
    for (size_t n = 0; n < ninfo; n++) {
      PMIX_INFO_XFER(&a->info[n], &info[n]);
    }
  }
  if (release_fn != NULL) {
    release_fn(release_cbdata);
  }
  latch_open(&a->latch, status);
}

/*
 * Asks for KEY qualified by the job's namespace; the proc table's entries, or NULL. A: where the
 * answer is kept (the entries are in it), for PMIX_INFO_FREE(a->info, a->ninfo).
 */
static pmix_proc_info_t *proc_table_in(const char *key, size_t *n, pmix_status_t *rc,
                                       answer_t *a) {
  pmix_query_t *q;
  PMIX_QUERY_CREATE(q, 1);
  PMIX_ARGV_APPEND(*rc, q[0].keys, key);
  PMIX_INFO_CREATE(q[0].qualifiers, 1);
  q[0].nqual = 1;
  PMIX_INFO_LOAD(&q[0].qualifiers[0], PMIX_NSPACE, job_ns, PMIX_STRING);
  a->info = NULL;
  a->ninfo = 0;
  latch_init(&a->latch);
  *rc = PMIx_Query_info_nb(q, 1, answered, a);
  if (*rc == PMIX_SUCCESS) {
    *rc = latch_await(&a->latch, 60);
  }
  PMIX_QUERY_FREE(q, 1);
  if (*rc != PMIX_SUCCESS || a->ninfo == 0 || a->info[0].value.type != PMIX_DATA_ARRAY) {
    if (*rc == PMIX_SUCCESS) {
      *rc = PMIX_ERR_NOT_FOUND;
    }
    return NULL;
  }
  *n = a->info[0].value.data.darray->size;
  return a->info[0].value.data.darray->array;
}

/* Asks for KEY qualified by the job's namespace; the proc table's entries (kept), or NULL. */
static pmix_proc_info_t *proc_table(const char *key, size_t *n, pmix_status_t *rc) {
  answer_t a;
  return proc_table_in(key, n, rc, &a);
}

/*
 * The job's proc table once every rank in it has its pid, 30 s at most: the launcher fills a pid
 * in as it starts that rank, and a table asked for as the job is spawned can still have ranks
 * whose pid is 0 (seen with Open MPI 5.0.7, 1 launch in 10 of 32 ranks on 2 cores). Whoever
 * attaches to the ranks from that table needs every pid.
 */
static pmix_proc_info_t *started_procs(size_t *n, pmix_status_t *rc) {
  struct timespec pause = {.tv_sec = 0, .tv_nsec = 20 * 1000 * 1000};
  for (int tries = 1;; tries++) {
    answer_t a;
    pmix_proc_info_t *procs = proc_table_in(PMIX_QUERY_PROC_TABLE, n, rc, &a);
    bool all = procs != NULL;
    for (size_t i = 0; all && i < *n; i++) {
      all = procs[i].pid > 0;
    }
    if (procs == NULL || all || tries == 1500) {
      return procs;
    }
    PMIX_INFO_FREE(a.info, a.ninfo);
    nanosleep(&pause, NULL);
  }
}

static void notify_release(const pmix_nspace_t ns) {
  pmix_proc_t target;
  PMIX_LOAD_PROCID(&target, ns, PMIX_RANK_WILDCARD);
  pmix_info_t info[2];
  PMIX_INFO_LOAD(&info[0], PMIX_EVENT_CUSTOM_RANGE, &target, PMIX_PROC);
  PMIX_INFO_LOAD(&info[1], PMIX_EVENT_NON_DEFAULT, NULL, PMIX_BOOL);
  PMIx_Notify_event(PMIX_DEBUGGER_RELEASE, &me, PMIX_RANGE_CUSTOM, info, 2, NULL, NULL);
  PMIX_INFO_DESTRUCT(&info[0]);
  PMIX_INFO_DESTRUCT(&info[1]);
}

/* Spawns one daemon per node of the job: ARGV (count ARGC, already unescaped). */
static void spawn_daemons(int argc, char **argv) {
  pmix_app_t *app;
  PMIX_APP_CREATE(app, 1);
  app[0].cmd = strdup(argv[0]);
  pmix_status_t rc;
  for (int i = 0; i < argc; i++) {
    PMIX_ARGV_APPEND(rc, app[0].argv, argv[i]);
  }
  char cwd[4096];
  if (getcwd(cwd, sizeof cwd) != NULL) {
    app[0].cwd = strdup(cwd);
  }
  app[0].maxprocs = 0;
  pmix_proc_t target;
  PMIX_LOAD_PROCID(&target, job_ns, PMIX_RANK_WILDCARD);
  pmix_info_t info[5];
  PMIX_INFO_LOAD(&info[0], PMIX_MAPBY, "ppr:1:node", PMIX_STRING);
  PMIX_INFO_LOAD(&info[1], PMIX_DEBUGGER_DAEMONS, NULL, PMIX_BOOL);
  PMIX_INFO_LOAD(&info[2], PMIX_DEBUG_TARGET, &target, PMIX_PROC);
  PMIX_INFO_LOAD(&info[3], PMIX_FWD_STDOUT, NULL, PMIX_BOOL);
  PMIX_INFO_LOAD(&info[4], PMIX_FWD_STDERR, NULL, PMIX_BOOL);
  pmix_nspace_t daemons;
  rc = PMIx_Spawn(info, 5, app, 1, daemons);
  for (int i = 0; i < 5; i++) {
    PMIX_INFO_DESTRUCT(&info[i]);
  }
  PMIX_APP_FREE(app, 1);
  if (rc != PMIX_SUCCESS) {
    fail("the daemons did not start", rc);
    return;
  }
  /* The daemons' own output (an agent's lines on why it cannot start) comes here too. */
  pull_output(daemons);
  say("daemons %s", daemons);
}

/* Reads commands until "end" or the end of standard input. */
static void serve(void) {
  char *line = NULL;
  size_t size = 0;
  ssize_t len;
  while (!job_ended.done && (len = getline(&line, &size, stdin)) > 0) {
    if (line[len - 1] == '\n') {
      line[len - 1] = 0;
    }
    char *words[256];
    int n = 0;
    for (char *w = strtok(line, " "); w != NULL && n < 255; w = strtok(NULL, " ")) {
      unescape(w);
      words[n++] = w;
    }
    words[n] = NULL;
    if (n == 0) {
      continue;
    } else if (strcmp(words[0], "release") == 0) {
      notify_release(job_ns);
      say("released");
    } else if (strcmp(words[0], "daemons") == 0 && n > 1) {
      spawn_daemons(n - 1, words + 1);
    } else if (strcmp(words[0], "end") == 0) {
      break;
    } else {
      char *e = escape(words[0], strlen(words[0]));
      say("error unknown%%20command%%20%s", e);
      free(e);
    }
  }
  free(line);
}

/* SIGTERM interrupts the wait for commands (no SA_RESTART), so that the job is ended through
 * PMIx; PMIx's own threads, started with it blocked, never take it. */
static void on_term(int sig) { (void)sig; }

static sigset_t term;

/*
 * Waits at most SECONDS for this helper's children to end: the launcher it started ends its
 * daemons on the job's nodes, and they clean their session directories up, only when it is left
 * to end on its own; a helper that exits first has it killed with it.
 */
static void await_children(int seconds) {
  for (int i = 0; i < 10 * seconds; i++) {
    int status;
    pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid < 0 && errno == ECHILD) {
      return;
    }
    if (pid == 0) {
      struct timespec tenth = {0, 100000000};
      nanosleep(&tenth, NULL);
    }
  }
}

/* SIGTERM to each process whose parent this helper is, as /proc lists them. */
static void term_children(void) {
  DIR *proc = opendir("/proc");
  if (proc == NULL) {
    return;
  }
  struct dirent *e;
  while ((e = readdir(proc)) != NULL) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%.20s/stat", e->d_name);
    FILE *f = fopen(path, "r");
    if (f == NULL) {
      continue;
    }
    char stat[512];
    size_t n = fread(stat, 1, sizeof stat - 1, f);
    fclose(f);
    stat[n] = '\0';
    char *end = strrchr(stat, ')');
    int pid = 0;
    int ppid = 0;
    char state;
    if (end != NULL && sscanf(stat, "%d", &pid) == 1 && sscanf(end + 1, " %c %d", &state, &ppid) == 2
        && ppid == (int)getpid()) {
      kill(pid, SIGTERM);
    }
  }
  closedir(proc);
}

/*
 * Waits at most SECONDS for L while this helper's parent (sdm's JVM) lives. Should the JVM be gone
 * (killed before it could end the launch through this helper), this helper's children (the
 * launcher it started, OWN_LAUNCHER) are asked to end with SIGTERM, which a launcher passes on to
 * its job, and the helper exits once they have (8 s at most), removing the launcher's run
 * directory if the launcher left it empty: nothing of the launch is left running.
 */
static pmix_status_t latch_await_with_parent(latch_t *l, int seconds, bool own_launcher) {
  pid_t parent = getppid();
  for (int waited = 0; waited < seconds; waited++) {
    pmix_status_t status = latch_await(l, 1);
    if (status != PMIX_ERR_TIMEOUT) {
      return status;
    }
    if (getppid() != parent) {
      term_children();
      await_children(8);
      /* The run directory sdm made for the launcher, once the launcher has cleaned up in it. */
      const char *run = own_launcher ? getenv("PRTE_MCA_prte_tmpdir_base") : NULL;
      if (run != NULL) {
        rmdir(run);
      }
      _exit(1);
    }
  }
  return PMIX_ERR_TIMEOUT;
}

/* Before PMIx starts its threads: they start with SIGTERM blocked. */
static void block_term(void) {
  sigemptyset(&term);
  sigaddset(&term, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &term, NULL);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_term;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, NULL);
}

/*
 * The part of both uses that follows the job's being found: its output pulled, its proc table
 * said, commands served until "end", SIGTERM or the end of standard input. KILL: whether the job
 * ends with the helper (it was launched for the session) or is left running (it was attached).
 */
static int serve_job(bool kill) {
  pmix_status_t rc;
  pull_output(job_ns);
  size_t n = 0;
  pmix_proc_info_t *procs = started_procs(&n, &rc);
  if (procs == NULL) {
    fail("the job's proc table", rc);
    PMIx_tool_finalize();
    return 1;
  }
  say("job %s %zu", job_ns, n);
  for (size_t i = 0; i < n; i++) {
    say("proc %u %s %d", procs[i].proc.rank, procs[i].hostname, (int)procs[i].pid);
  }
  say("procs %zu", n);

  pthread_sigmask(SIG_UNBLOCK, &term, NULL);
  serve();
  if (kill && !job_ended.done) {
    /* Asked to end, or our JVM is gone: the job goes with us. */
    pmix_proc_t target;
    PMIX_LOAD_PROCID(&target, job_ns, PMIX_RANK_WILDCARD);
    pmix_info_t info;
    PMIX_INFO_LOAD(&info, PMIX_JOB_CTRL_KILL, NULL, PMIX_BOOL);
    PMIx_Job_control(&target, 1, &info, 1, NULL, 0);
    latch_await(&job_ended, 10);
  }
  PMIx_tool_finalize();
  await_children(8);
  return 0;
}

static int launch(bool on_exec, int argc, char **argv) {
  block_term();
  pmix_status_t rc;
  pmix_info_t init[2];
  PMIX_INFO_LOAD(&init[0], PMIX_TOOL_DO_NOT_CONNECT, NULL, PMIX_BOOL);
  PMIX_INFO_LOAD(&init[1], PMIX_LAUNCHER, NULL, PMIX_BOOL);
  rc = PMIx_tool_init(&me, init, 2);
  if (rc != PMIX_SUCCESS) {
    fail("PMIx_tool_init", rc);
    return 1;
  }
  latch_init(&job_ready);
  latch_init(&job_ended);
  pmix_value_t *uri = NULL;
  rc = PMIx_Get(&me, PMIX_MYSERVER_URI, NULL, 0, &uri);
  if (rc != PMIX_SUCCESS) {
    fail("this tool's own URI", rc);
    PMIx_tool_finalize();
    return 1;
  }
  pmix_status_t lost = PMIX_ERR_LOST_CONNECTION;
  on_event(&lost, "sdm-lost-connection", NULL, lost_launcher);

  pmix_app_t *app;
  PMIX_APP_CREATE(app, 1);
  app[0].cmd = strdup(argv[0]);
  for (int i = 0; i < argc; i++) {
    PMIX_ARGV_APPEND(rc, app[0].argv, argv[i]);
  }
  char cwd[4096];
  if (getcwd(cwd, sizeof cwd) != NULL) {
    app[0].cwd = strdup(cwd);
  }
  app[0].maxprocs = 1;
  PMIX_SETENV(rc, PMIX_LAUNCHER_RNDZ_URI, uri->data.string, &app[0].env);
  PMIX_VALUE_RELEASE(uri);

  /* What the launcher is to do with the job: hold its ranks, tell of its events, forward its
   * output to this tool. */
  void *directives = PMIx_Info_list_start();
  PMIx_Info_list_add(directives, on_exec ? PMIX_DEBUG_STOP_ON_EXEC : PMIX_DEBUG_STOP_IN_INIT,
                     NULL, PMIX_BOOL);
  PMIx_Info_list_add(directives, PMIX_NOTIFY_JOB_EVENTS, NULL, PMIX_BOOL);
  PMIx_Info_list_add(directives, PMIX_FWD_STDOUT, NULL, PMIX_BOOL);
  PMIx_Info_list_add(directives, PMIX_FWD_STDERR, NULL, PMIX_BOOL);
  pmix_data_array_t dirs;
  PMIx_Info_list_convert(directives, &dirs);
  PMIx_Info_list_release(directives);
  pmix_info_t job[1];
  PMIX_INFO_LOAD(&job[0], PMIX_LAUNCH_DIRECTIVES, &dirs, PMIX_DATA_ARRAY);
  pmix_nspace_t spawned;
  rc = PMIx_Spawn(job, 1, app, 1, spawned);
  PMIX_APP_FREE(app, 1);
  if (rc != PMIX_SUCCESS) {
    fail("the launcher did not start", rc);
    PMIx_tool_finalize();
    return 1;
  }
  PMIX_LOAD_NSPACE(launcher_ns, spawned);

  pmix_proc_t launcher;
  PMIX_LOAD_PROCID(&launcher, launcher_ns, 0);
  int timeout = 60;
  pmix_info_t wait[2];
  PMIX_INFO_LOAD(&wait[0], PMIX_WAIT_FOR_CONNECTION, NULL, PMIX_BOOL);
  PMIX_INFO_LOAD(&wait[1], PMIX_TIMEOUT, &timeout, PMIX_INT);
  rc = PMIx_tool_set_server(&launcher, wait, 2);
  if (rc != PMIX_SUCCESS) {
    fail("the launcher did not connect back", rc);
    PMIx_tool_finalize();
    return 1;
  }
  say("launcher %s", launcher_ns);

  pmix_status_t ready = PMIX_READY_FOR_DEBUG;
  on_event(&ready, "sdm-ready-for-debug", NULL, ready_for_debug);
  pmix_status_t end = PMIX_EVENT_JOB_END;
  on_event(&end, "sdm-job-end", NULL, job_end);
  notify_release(launcher_ns); /* the launcher may now spawn the job */

  rc = latch_await_with_parent(&job_ready, 120, true);
  if (rc != PMIX_SUCCESS) {
    fail("the job was not held for the debugger", rc);
    PMIx_tool_finalize();
    return 1;
  }

  return serve_job(true);
}

/* ------------------------------------------------------------------ direct (use case II) */

/*
 * Spawns N ranks of ARGV into the running DVM (prte) whose pid is PID, held for the debugger.
 */
static int direct(pid_t pid, bool on_exec, int n, char **env, int argc, char **argv) {
  block_term();
  pmix_status_t rc;
  pmix_info_t init[2];
  PMIX_INFO_LOAD(&init[0], PMIX_SERVER_PIDINFO, &pid, PMIX_PID);
  PMIX_INFO_LOAD(&init[1], PMIX_LAUNCHER, NULL, PMIX_BOOL);
  rc = PMIx_tool_init(&me, init, 2);
  if (rc != PMIX_SUCCESS) {
    fail("cannot connect to the PMIx server of that DVM", rc);
    return 1;
  }
  latch_init(&job_ready);
  latch_init(&job_ended);
  pmix_status_t lost = PMIX_ERR_LOST_CONNECTION;
  on_event(&lost, "sdm-lost-connection", NULL, lost_launcher);
  /* READY_FOR_DEBUG can come before PMIx_Spawn returns: the handlers are there first. */
  pmix_status_t ready = PMIX_READY_FOR_DEBUG;
  on_event(&ready, "sdm-ready-for-debug", NULL, ready_for_debug);
  pmix_status_t end = PMIX_EVENT_JOB_END;
  on_event(&end, "sdm-job-end", NULL, job_end);
  say("launcher %d", (int)pid);

  pmix_app_t *app;
  PMIX_APP_CREATE(app, 1);
  app[0].cmd = strdup(argv[0]);
  for (int i = 0; i < argc; i++) {
    PMIX_ARGV_APPEND(rc, app[0].argv, argv[i]);
  }
  char cwd[4096];
  if (getcwd(cwd, sizeof cwd) != NULL) {
    app[0].cwd = strdup(cwd);
  }
  app[0].maxprocs = n;
  for (int i = 0; env != NULL && env[i] != NULL; i++) {
    PMIX_ARGV_APPEND(rc, app[0].env, env[i]);
  }
  pmix_info_t job[4];
  PMIX_INFO_LOAD(&job[0], on_exec ? PMIX_DEBUG_STOP_ON_EXEC : PMIX_DEBUG_STOP_IN_INIT, NULL,
                 PMIX_BOOL);
  PMIX_INFO_LOAD(&job[1], PMIX_FWD_STDOUT, NULL, PMIX_BOOL);
  PMIX_INFO_LOAD(&job[2], PMIX_FWD_STDERR, NULL, PMIX_BOOL);
  PMIX_INFO_LOAD(&job[3], PMIX_NOTIFY_COMPLETION, NULL, PMIX_BOOL);
  pmix_nspace_t spawned;
  rc = PMIx_Spawn(job, 4, app, 1, spawned);
  PMIX_APP_FREE(app, 1);
  for (int i = 0; i < 4; i++) {
    PMIX_INFO_DESTRUCT(&job[i]);
  }
  if (rc != PMIX_SUCCESS) {
    fail("the DVM did not start the job", rc);
    PMIx_tool_finalize();
    return 1;
  }
  expect(spawned);
  rc = latch_await_with_parent(&job_ready, 120, false);
  if (rc != PMIX_SUCCESS) {
    fail("the job was not held for the debugger", rc);
    PMIx_tool_finalize();
    return 1;
  }
  return serve_job(true);
}

/* ------------------------------------------------------------------ attach (use case I) */

/* The namespaces the server knows, comma-separated; NULL when it says none. */
static char *namespaces(pmix_status_t *rc) {
  pmix_query_t *q;
  PMIX_QUERY_CREATE(q, 1);
  PMIX_ARGV_APPEND(*rc, q[0].keys, PMIX_QUERY_NAMESPACES);
  answer_t a = {.info = NULL, .ninfo = 0};
  latch_init(&a.latch);
  *rc = PMIx_Query_info_nb(q, 1, answered, &a);
  if (*rc == PMIX_SUCCESS) {
    *rc = latch_await(&a.latch, 60);
  }
  PMIX_QUERY_FREE(q, 1);
  if (*rc != PMIX_SUCCESS || a.ninfo == 0 || a.info[0].value.type != PMIX_STRING) {
    return NULL;
  }
  return strdup(a.info[0].value.data.string);
}

/*
 * Attaches to the running job of the launcher (or DVM) whose pid is PID: the namespace NS, or
 * the first the server knows that is not its own daemons' ("...@0").
 */
static int attach(const char *server, const char *ns) {
  block_term();
  pmix_status_t rc;
  pmix_info_t init[2];
  pid_t pid = (pid_t)atol(server);
  if (strstr(server, "://") != NULL) {
    PMIX_INFO_LOAD(&init[0], PMIX_SERVER_URI, server, PMIX_STRING);
  } else {
    PMIX_INFO_LOAD(&init[0], PMIX_SERVER_PIDINFO, &pid, PMIX_PID);
  }
  PMIX_INFO_LOAD(&init[1], PMIX_LAUNCHER, NULL, PMIX_BOOL);
  rc = PMIx_tool_init(&me, init, 2);
  if (rc != PMIX_SUCCESS) {
    fail("cannot connect to that PMIx server", rc);
    return 1;
  }
  latch_init(&job_ready);
  latch_init(&job_ended);
  pmix_status_t lost = PMIX_ERR_LOST_CONNECTION;
  on_event(&lost, "sdm-lost-connection", NULL, lost_launcher);
  if (ns != NULL) {
    PMIX_LOAD_NSPACE(job_ns, ns);
  } else {
    char *all = namespaces(&rc);
    char *found = NULL;
    for (char *n = all == NULL ? NULL : strtok(all, ","); n != NULL; n = strtok(NULL, ",")) {
      size_t len = strlen(n);
      if (!(len >= 2 && strcmp(n + len - 2, "@0") == 0)) {
        found = n;
        break;
      }
    }
    if (found == NULL) {
      fail("that launcher runs no job (its namespaces)", all == NULL ? rc : PMIX_ERR_NOT_FOUND);
      PMIx_tool_finalize();
      return 1;
    }
    PMIX_LOAD_NSPACE(job_ns, found);
    free(all);
  }
  pmix_status_t end = PMIX_EVENT_JOB_END;
  on_event(&end, "sdm-job-end", NULL, job_end);
  char *e = escape(server, strlen(server));
  say("launcher %s", e);
  free(e);
  return serve_job(false);
}

/* ------------------------------------------------------------------ local (in a daemon) */

static int local(int argc, char **argv) {
  pmix_status_t rc = PMIx_tool_init(&me, NULL, 0);
  if (rc != PMIX_SUCCESS) {
    fprintf(stderr, "sdm_pmix: PMIx_tool_init in the daemon: %s\n", PMIx_Error_string(rc));
    return 1;
  }
  pmix_proc_t wildcard;
  PMIX_LOAD_PROCID(&wildcard, me.nspace, PMIX_RANK_WILDCARD);
  pmix_value_t *target = NULL;
  rc = PMIx_Get(&wildcard, PMIX_DEBUG_TARGET, NULL, 0, &target);
  if (rc != PMIX_SUCCESS || target == NULL || target->type != PMIX_PROC) {
    fprintf(stderr, "sdm_pmix: no job to debug (PMIX_DEBUG_TARGET): %s\n", PMIx_Error_string(rc));
    PMIx_tool_finalize();
    return 1;
  }
  PMIX_LOAD_NSPACE(job_ns, target->data.proc->nspace);
  PMIX_VALUE_RELEASE(target);
  size_t n = 0;
  pmix_proc_info_t *procs = proc_table(PMIX_QUERY_LOCAL_PROC_TABLE, &n, &rc);
  if (procs == NULL) {
    fprintf(stderr, "sdm_pmix: this node's ranks of %s: %s\n", job_ns, PMIx_Error_string(rc));
    PMIx_tool_finalize();
    return 1;
  }
  size_t len = 1;
  char *list = calloc(1, 24 * n + 1);
  for (size_t i = 0; i < n; i++) {
    len += sprintf(list + len - 1, "%s%d=%u", i == 0 ? "" : ",", (int)procs[i].pid,
                   procs[i].proc.rank);
  }
  PMIx_tool_finalize();
  char **args = calloc(argc + 3, sizeof(char *));
  for (int i = 0; i < argc; i++) {
    args[i] = argv[i];
  }
  args[argc] = "--attach";
  args[argc + 1] = list;
  execvp(args[0], args);
  fprintf(stderr, "sdm_pmix: cannot run %s: %s\n", args[0], strerror(errno));
  return 1;
}

/* The event lines on standard output as found, fd 1 on /dev/null for what inherits it. */
static bool events_apart(void) {
  int fd = dup(1);
  int null = open("/dev/null", O_WRONLY);
  if (fd < 0 || null < 0 || dup2(null, 1) < 0 || (events = fdopen(fd, "w")) == NULL) {
    perror("sdm_pmix");
    return false;
  }
  close(null);
  fcntl(fd, F_SETFD, FD_CLOEXEC);
  return true;
}

int main(int argc, char **argv) {
  if (argc >= 4 && strcmp(argv[1], "launch") == 0
      && (strcmp(argv[2], "in-init") == 0 || strcmp(argv[2], "on-exec") == 0)) {
    if (!events_apart()) {
      return 1;
    }
    return launch(strcmp(argv[2], "on-exec") == 0, argc - 3, argv + 3);
  }
  if (argc >= 3 && strcmp(argv[1], "local") == 0) {
    return local(argc - 2, argv + 2);
  }
  if (argc >= 6 && strcmp(argv[1], "direct") == 0
      && (strcmp(argv[3], "in-init") == 0 || strcmp(argv[3], "on-exec") == 0)) {
    if (!events_apart()) {
      return 1;
    }
    /* The --env NAME=VALUE pairs, gathered into a NULL-terminated list of NAME=VALUE. */
    char **env = calloc(argc, sizeof(char *));
    int first = 5, count = 0;
    while (first + 2 < argc && strcmp(argv[first], "--env") == 0) {
      env[count++] = argv[first + 1];
      first += 2;
    }
    return direct((pid_t)atol(argv[2]), strcmp(argv[3], "on-exec") == 0, atoi(argv[4]), env,
                  argc - first, argv + first);
  }
  if ((argc == 3 || argc == 4) && strcmp(argv[1], "attach") == 0) {
    if (!events_apart()) {
      return 1;
    }
    return attach(argv[2], argc == 4 ? argv[3] : NULL);
  }
  fprintf(stderr,
          "usage: sdm_pmix launch in-init|on-exec LAUNCHER ARG...\n"
          "       sdm_pmix direct PID in-init|on-exec N [--env NAME=VALUE]... PROGRAM ARG...\n"
          "       sdm_pmix attach PID|URI [NAMESPACE]\n"
          "       sdm_pmix local COMMAND ARG...\n");
  return 2;
}
