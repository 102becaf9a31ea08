/*
 * sdm's MPI wait records: a PMPI interposition library that sdm compiles with the job's own mpicc
 * and preloads into the ranks it launches. Each rank keeps, in sdm_wait_state, the MPI call it is
 * blocked in (peer, tag, communicator, or the number of a collective on its communicator), the
 * handles of the requests a wait or test waits on, and the last SDM_REQUESTS - 1 nonblocking
 * requests started, in a ring. Nothing is computed or sent: when gdb has stopped the rank, sdm reads
 * the structure's bytes from the rank's memory, finds each request waited on in the ring (its latest
 * start with that handle), and builds the wait-for graph across ranks. A call costs a few stores:
 * nothing is searched or freed. The layout is fixed (io.sdmfabric.gdbmi.MpiWaitRecords reads it):
 * change both together, and the version with them.
 *
 * Limits: one blocking call per process (a second thread's call overwrites the first's), a request
 * started SDM_REQUESTS - 1 requests or more before it is waited on is not found (its peer is not
 * known), at most SDM_WAITING requests per wait and SDM_COMMS communicators described at once
 * (older ones are dropped), and only the C bindings.
 *
 * It also holds a rank for the debugger at the end of MPI_Init when the rank shim asks for it
 * (SDM_HOLD_IN_INIT=1): the rank stops itself there, and the node's agent attaches gdb to it.
 */
#include <fcntl.h>
#include <mpi.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SDM_REQUESTS 256 /* the ring's slots, numbered by a byte: it wraps round by itself */
#define SDM_WAITING 64
#define SDM_COMMS 16
#define SDM_RUNS 32

/* The calls, numbered as MpiWaitRecords.CALLS names them (0: none). */
enum sdm_call {
  SDM_NONE, SDM_SEND, SDM_SSEND, SDM_BSEND, SDM_RSEND, SDM_RECV, SDM_SENDRECV,
  SDM_SENDRECV_REPLACE, SDM_PROBE, SDM_ISEND, SDM_ISSEND, SDM_IBSEND, SDM_IRSEND, SDM_IRECV,
  SDM_WAIT, SDM_WAITALL, SDM_WAITANY, SDM_WAITSOME, SDM_TEST, SDM_TESTALL, SDM_TESTANY,
  SDM_TESTSOME, SDM_BARRIER, SDM_BCAST, SDM_REDUCE, SDM_ALLREDUCE, SDM_GATHER, SDM_GATHERV,
  SDM_SCATTER, SDM_SCATTERV, SDM_ALLGATHER, SDM_ALLGATHERV, SDM_ALLTOALL, SDM_ALLTOALLV,
  SDM_REDUCE_SCATTER, SDM_REDUCE_SCATTER_BLOCK, SDM_SCAN, SDM_EXSCAN, SDM_FINALIZE
};

/* One operation: a blocking call, or a request it started. The call and the communicator's slot
   share 32 bits, so that one store writes both. */
struct sdm_op {
  uint16_t call;
  uint16_t comm; /* slot in comms[] */
  int32_t peer;  /* rank in the communicator; MPI_ANY_SOURCE as -1; -2 for a collective */
  int32_t tag;   /* MPI_ANY_TAG as -1 */
  int64_t seq;   /* (after 4 bytes of padding) a collective's number on its communicator, from 1;
                    a request's handle */
};
#define CALL_ON(call, slot) ((uint32_t)(call) | (uint32_t)(slot) << 16)

/* A communicator: its members' world ranks in its own rank order, as runs of consecutive ranks. */
struct sdm_comm {
  int32_t size;  /* 0: a free slot */
  int32_t runs;  /* -1: more than SDM_RUNS runs, the members are not known */
  int64_t handle;
  int64_t collectives;
  int32_t run[SDM_RUNS][2];
  uint64_t key;  /* the members' hash: the same communicator on every rank */
};

struct sdm_state {
  char magic[8];
  int32_t version;
  int32_t world_rank;
  int32_t world_size;
  int32_t polling; /* blocking is an MPI_Test* that found its requests not done */
  int32_t waits;   /* how many handles of waiting[] the blocking call waits on */
  int32_t any;     /* it waits for any one of them, not all */
  struct sdm_op blocking;
  int64_t waiting[SDM_WAITING];         /* handles of the requests waited on */
  uint8_t next; /* the ring's slot being written, which the reader passes over */
  struct sdm_op requests[SDM_REQUESTS]; /* the ones started before, seq their handles */
  struct sdm_comm comms[SDM_COMMS];
};

_Static_assert(sizeof(struct sdm_op) == 24, "sdm_op layout");
_Static_assert(sizeof(struct sdm_comm) == 288, "sdm_comm layout");
_Static_assert(offsetof(struct sdm_op, seq) == 16, "sdm_op layout");
_Static_assert(offsetof(struct sdm_state, next) == 568, "sdm_state layout");
_Static_assert(offsetof(struct sdm_state, requests) == 576, "sdm_state layout");
_Static_assert(sizeof(struct sdm_state) == 11328, "sdm_state layout");

/* The records. The library writes them by a name of its own, so that its code reaches them
   directly rather than through the global offset table, and exports them as sdm_wait_state, the
   name the reader looks up. */
static volatile struct sdm_state sdm_state = {.magic = "SDMWAIT", .version = 3, .world_rank = -1};
extern volatile struct sdm_state sdm_wait_state
    __attribute__((alias("sdm_state"), visibility("default")));

static int next_comm = 1;

/* The MPI calls of the wrappers a program calls most often are called through the global offset
   table, as -fno-plt would: one jump fewer per call than through the procedure linkage table. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define NOPLT(name) extern __typeof__(name) name __attribute__((noplt));
NOPLT(PMPI_Isend)
NOPLT(PMPI_Issend)
NOPLT(PMPI_Ibsend)
NOPLT(PMPI_Irsend)
NOPLT(PMPI_Irecv)
NOPLT(PMPI_Wait)
NOPLT(PMPI_Waitall)
NOPLT(PMPI_Test)
NOPLT(PMPI_Send)
NOPLT(PMPI_Recv)
#endif

#define BARRIER() __asm__ __volatile__("" ::: "memory")

static int64_t handle_of(const void *handle, size_t size) {
  int64_t v = 0;
  memcpy(&v, handle, size < sizeof v ? size : sizeof v);
  return v;
}

static uint64_t describe(volatile struct sdm_comm *c, MPI_Comm comm) {
  MPI_Group group, world;
  int size;
  PMPI_Comm_size(comm, &size);
  PMPI_Comm_group(comm, &group);
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  uint64_t key = 1469598103934665603ULL;
  int runs = 0;
  for (int i = 0; i < size; i++) {
    int w;
    PMPI_Group_translate_ranks(group, 1, &i, world, &w);
    key = (key ^ (uint64_t)(uint32_t)w) * 1099511628211ULL;
    if (runs > 0 && runs <= SDM_RUNS && c->run[runs - 1][1] == w - 1) {
      c->run[runs - 1][1] = w;
    } else if (++runs <= SDM_RUNS) {
      c->run[runs - 1][0] = w;
      c->run[runs - 1][1] = w;
    }
  }
  PMPI_Group_free(&group);
  PMPI_Group_free(&world);
  c->runs = runs <= SDM_RUNS ? runs : -1;
  c->size = size;
  return key;
}

/* The communicator slot_of() found last, which the next call most likely asks for again: a
   program's nonblocking calls come in runs on one communicator. 0: none. */
static int last_slot;
static int64_t last_handle;

/* The slot of comm; slot 0 is MPI_COMM_WORLD. A new one takes the next slot round the table. */
static int slot_of(MPI_Comm comm) {
  if (comm == MPI_COMM_WORLD) {
    return 0;
  }
  int64_t h = handle_of(&comm, sizeof comm);
  if (last_slot != 0 && last_handle == h) {
    return last_slot;
  }
  last_handle = h;
  for (int i = 1; i < SDM_COMMS; i++) {
    if (sdm_state.comms[i].size != 0 && sdm_state.comms[i].handle == h) {
      return last_slot = i;
    }
  }
  int i = next_comm;
  next_comm = next_comm + 1 < SDM_COMMS ? next_comm + 1 : 1;
  volatile struct sdm_comm *c = &sdm_state.comms[i];
  c->size = 0;
  c->handle = h;
  c->collectives = 0;
  c->key = describe(c, comm);
  return last_slot = i;
}

static void forget(MPI_Comm comm) {
  int64_t h = handle_of(&comm, sizeof comm);
  for (int i = 1; i < SDM_COMMS; i++) {
    if (sdm_state.comms[i].handle == h) {
      sdm_state.comms[i].size = 0;
    }
  }
  if (last_handle == h) {
    last_slot = 0;
  }
}

static void block(int call, int peer, int tag, MPI_Comm comm) {
  sdm_state.polling = 0;
  sdm_state.waits = 0;
  int slot = slot_of(comm);
  sdm_state.blocking.peer = peer;
  sdm_state.blocking.tag = tag;
  sdm_state.blocking.seq = 0;
  BARRIER();
  *(volatile uint32_t *)&sdm_state.blocking = CALL_ON(call, slot);
}

static void collective(int call, MPI_Comm comm) {
  int slot = slot_of(comm);
  sdm_state.polling = 0;
  sdm_state.waits = 0;
  sdm_state.blocking.peer = -2;
  sdm_state.blocking.tag = -1;
  sdm_state.blocking.seq = ++sdm_state.comms[slot].collectives;
  BARRIER();
  *(volatile uint32_t *)&sdm_state.blocking = CALL_ON(call, slot);
}

static void done(void) {
  BARRIER();
  sdm_state.blocking.call = SDM_NONE;
}

/* A request being started: its peer and tag go into the ring's next slot before the MPI call;
   started() writes the call with its communicator's slot, in one store, and the handle the call
   returned, then moves the ring on. The reader passes over the slot at next, the one being
   written, so the slot's parts go in any order and nothing is emptied first; a call that fails
   leaves next where it was and the next call takes the slot again. Both are inlined into the
   wrappers, and only the slot's address lives across the MPI call. */
static inline __attribute__((always_inline)) volatile struct sdm_op *starting(
    int peer, int tag, const MPI_Request *request) {
  volatile struct sdm_op *op = &sdm_state.requests[sdm_state.next];
  __asm__("" : "+r"(op)); /* one register for the slot, not the parts of its address */
  op->peer = peer;
  op->tag = tag;
  op->seq = (int64_t)(intptr_t)request; /* until the call returns: nothing else to keep */
  return op;
}

static inline __attribute__((always_inline)) void started(volatile struct sdm_op *op,
                                                          uint32_t call_on) {
  *(volatile uint32_t *)op = call_on;
  op->seq = handle_of((const MPI_Request *)(intptr_t)op->seq, sizeof(MPI_Request));
  BARRIER();
  *(uint8_t *)&sdm_state.next += 1; /* one instruction: not a volatile load and store */
  BARRIER();
}

/* The blocking call waits on the count requests: their handles, copied as they are, null ones too
   (the reader finds no start of a null request in the ring and passes over it). */
static void await(int call, int count, const MPI_Request *requests, int any, int polling) {
  int waits = count < SDM_WAITING ? count : SDM_WAITING;
  if (sizeof *requests == sizeof(int64_t)) {
    memcpy((void *)sdm_state.waiting, requests, waits * sizeof(int64_t));
  } else {
    for (int r = 0; r < waits; r++) {
      sdm_state.waiting[r] = handle_of(&requests[r], sizeof requests[r]);
    }
  }
  sdm_state.polling = polling;
  sdm_state.waits = waits;
  sdm_state.any = any;
  sdm_state.blocking.peer = -2;
  sdm_state.blocking.tag = -1;
  sdm_state.blocking.seq = 0;
  BARRIER();
  *(volatile uint32_t *)&sdm_state.blocking = CALL_ON(call, 0);
}

/* MPI has started: this rank's place in MPI_COMM_WORLD, and that communicator in slot 0. */
static void mpi_started(void) {
  int rank, size;
  MPI_Comm world = MPI_COMM_WORLD;
  PMPI_Comm_rank(world, &rank);
  PMPI_Comm_size(world, &size);
  sdm_state.world_size = size;
  sdm_state.comms[0].handle = handle_of(&world, sizeof world);
  sdm_state.comms[0].key = describe(&sdm_state.comms[0], world);
  sdm_state.world_rank = rank;
}

/* Whether a debugger traces this process already (TracerPid in /proc/self/status). */
static int traced(void) {
  char status[4096];
  int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return 0;
  }
  ssize_t n = read(fd, status, sizeof status - 1);
  close(fd);
  if (n <= 0) {
    return 0;
  }
  status[n] = '\0';
  const char *tracer = strstr(status, "\nTracerPid:");
  return tracer != NULL && strtol(tracer + strlen("\nTracerPid:"), NULL, 10) != 0;
}

/*
 * A rank that sdm launched to be attached once MPI has started, rather than at its exec (the
 * hundred libraries MPI_Init loads and unloads would each stop it under gdb): it stops itself here
 * with SIGSTOP, and the node's agent, which knows its pid from the shim, attaches gdb and swallows
 * the stop. Not if gdb has it already (the agent attaches a rank that takes too long to get here
 * where it is). Once: the variable goes, so that a program the rank starts does not stop too.
 */
static void hold_for_debugger(void) {
  const char *hold = getenv("SDM_HOLD_IN_INIT");
  if (hold != NULL && strcmp(hold, "1") == 0) {
    unsetenv("SDM_HOLD_IN_INIT");
    if (!traced()) {
      kill(getpid(), SIGSTOP); /* the whole process, whichever thread; bt shows kill in MPI_Init */
    }
  }
}

int MPI_Init(int *argc, char ***argv) {
  int rc = PMPI_Init(argc, argv);
  mpi_started();
  hold_for_debugger();
  return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  mpi_started();
  hold_for_debugger();
  return rc;
}

int MPI_Finalize(void) {
  collective(SDM_FINALIZE, MPI_COMM_WORLD);
  int rc = PMPI_Finalize();
  done();
  return rc;
}

int MPI_Comm_free(MPI_Comm *comm) {
  forget(*comm);
  return PMPI_Comm_free(comm);
}

/* Blocking point-to-point calls. */
#define SEND(NAME, CALL)                                                                   \
  int NAME(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) { \
    block(CALL, dest, tag, comm);                                                          \
    int rc = P##NAME(buf, count, type, dest, tag, comm);                                   \
    done();                                                                                \
    return rc;                                                                             \
  }
SEND(MPI_Send, SDM_SEND)
SEND(MPI_Ssend, SDM_SSEND)
SEND(MPI_Bsend, SDM_BSEND)
SEND(MPI_Rsend, SDM_RSEND)

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status *status) {
  block(SDM_RECV, source, tag, comm);
  int rc = PMPI_Recv(buf, count, type, source, tag, comm, status);
  done();
  return rc;
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status) {
  block(SDM_PROBE, source, tag, comm);
  int rc = PMPI_Probe(source, tag, comm, status);
  done();
  return rc;
}

/* A send-receive waits on its source; its send goes to dest, usually eagerly. */
int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag, void *rbuf,
                 int rcount, MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
                 MPI_Status *status) {
  block(SDM_SENDRECV, source, rtag, comm);
  int rc = PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm,
                         status);
  done();
  return rc;
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int stag, int source,
                         int rtag, MPI_Comm comm, MPI_Status *status) {
  block(SDM_SENDRECV_REPLACE, source, rtag, comm);
  int rc = PMPI_Sendrecv_replace(buf, count, type, dest, stag, source, rtag, comm, status);
  done();
  return rc;
}

/* Nonblocking calls: their requests, until a wait or test completes them. A call on
   MPI_COMM_WORLD, the most frequent, takes a path of its own with nothing else to keep across the
   MPI call and no call of the library's own; one on another communicator finds its slot after. */
#define START(NAME, CALL, BUFFER)                                                                  \
  static __attribute__((noinline)) int NAME##_on(BUFFER buf, int count, MPI_Datatype type,         \
                                                 int peer, int tag, MPI_Comm comm,                 \
                                                 MPI_Request *request) {                           \
    volatile struct sdm_op *op = starting(peer, tag, request);                                     \
    int rc = P##NAME(buf, count, type, peer, tag, comm, request);                                  \
    if (rc == MPI_SUCCESS) {                                                                       \
      started(op, CALL_ON(CALL, slot_of(comm)));                                                   \
    }                                                                                              \
    return rc;                                                                                     \
  }                                                                                                \
  int NAME(BUFFER buf, int count, MPI_Datatype type, int peer, int tag, MPI_Comm comm,             \
           MPI_Request *request) {                                                                 \
    if (comm != MPI_COMM_WORLD) {                                                                  \
      return NAME##_on(buf, count, type, peer, tag, comm, request);                                \
    }                                                                                              \
    volatile struct sdm_op *op = starting(peer, tag, request);                                     \
    int rc = P##NAME(buf, count, type, peer, tag, comm, request);                                  \
    if (rc == MPI_SUCCESS) {                                                                       \
      started(op, CALL_ON(CALL, 0));                                                               \
    }                                                                                              \
    return rc;                                                                                     \
  }
START(MPI_Isend, SDM_ISEND, const void *)
START(MPI_Issend, SDM_ISSEND, const void *)
START(MPI_Ibsend, SDM_IBSEND, const void *)
START(MPI_Irsend, SDM_IRSEND, const void *)
START(MPI_Irecv, SDM_IRECV, void *)

int MPI_Wait(MPI_Request *request, MPI_Status *status) {
  await(SDM_WAIT, 1, request, 0, 0);
  int rc = PMPI_Wait(request, status);
  done();
  return rc;
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  await(SDM_WAITALL, count, requests, 0, 0);
  int rc = PMPI_Waitall(count, requests, statuses);
  done();
  return rc;
}

int MPI_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *status) {
  await(SDM_WAITANY, count, requests, 1, 0);
  int rc = PMPI_Waitany(count, requests, index, status);
  done();
  return rc;
}

int MPI_Waitsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                 MPI_Status statuses[]) {
  await(SDM_WAITSOME, incount, requests, 1, 0);
  int rc = PMPI_Waitsome(incount, requests, outcount, indices, statuses);
  done();
  return rc;
}

/* A test that finds its requests not done leaves them as the rank's wait, marked polling, until
   the next MPI call that blocks or tests. */
int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status) {
  int rc = PMPI_Test(request, flag, status);
  if (*flag) {
    done();
  } else {
    await(SDM_TEST, 1, request, 0, 1);
  }
  return rc;
}

int MPI_Testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[]) {
  int rc = PMPI_Testall(count, requests, flag, statuses);
  if (*flag) {
    done();
  } else {
    await(SDM_TESTALL, count, requests, 0, 1);
  }
  return rc;
}

int MPI_Testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status) {
  int rc = PMPI_Testany(count, requests, index, flag, status);
  if (*flag) {
    done();
  } else {
    await(SDM_TESTANY, count, requests, 1, 1);
  }
  return rc;
}

int MPI_Testsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                 MPI_Status statuses[]) {
  int rc = PMPI_Testsome(incount, requests, outcount, indices, statuses);
  if (*outcount > 0) {
    done();
  } else {
    await(SDM_TESTSOME, incount, requests, 1, 1);
  }
  return rc;
}

/* Collectives: the number of each on its communicator tells who has arrived at which. */
int MPI_Barrier(MPI_Comm comm) {
  collective(SDM_BARRIER, comm);
  int rc = PMPI_Barrier(comm);
  done();
  return rc;
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  collective(SDM_BCAST, comm);
  int rc = PMPI_Bcast(buf, count, type, root, comm);
  done();
  return rc;
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, int root,
               MPI_Comm comm) {
  collective(SDM_REDUCE, comm);
  int rc = PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm);
  done();
  return rc;
}

int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm) {
  collective(SDM_ALLREDUCE, comm);
  int rc = PMPI_Allreduce(sbuf, rbuf, count, type, op, comm);
  done();
  return rc;
}

#define GATHER(NAME, CALL)                                                                   \
  int NAME(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,         \
           MPI_Datatype rtype, int root, MPI_Comm comm) {                                    \
    collective(CALL, comm);                                                                  \
    int rc = P##NAME(sbuf, scount, stype, rbuf, rcount, rtype, root, comm);                  \
    done();                                                                                  \
    return rc;                                                                               \
  }
GATHER(MPI_Gather, SDM_GATHER)
GATHER(MPI_Scatter, SDM_SCATTER)

int MPI_Gatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, const int rcounts[],
                const int displs[], MPI_Datatype rtype, int root, MPI_Comm comm) {
  collective(SDM_GATHERV, comm);
  int rc = PMPI_Gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm);
  done();
  return rc;
}

int MPI_Scatterv(const void *sbuf, const int scounts[], const int displs[], MPI_Datatype stype,
                 void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm) {
  collective(SDM_SCATTERV, comm);
  int rc = PMPI_Scatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm);
  done();
  return rc;
}

#define ALLGATHER(NAME, CALL)                                                                \
  int NAME(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,         \
           MPI_Datatype rtype, MPI_Comm comm) {                                              \
    collective(CALL, comm);                                                                  \
    int rc = P##NAME(sbuf, scount, stype, rbuf, rcount, rtype, comm);                        \
    done();                                                                                  \
    return rc;                                                                               \
  }
ALLGATHER(MPI_Allgather, SDM_ALLGATHER)
ALLGATHER(MPI_Alltoall, SDM_ALLTOALL)

int MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                   const int rcounts[], const int displs[], MPI_Datatype rtype, MPI_Comm comm) {
  collective(SDM_ALLGATHERV, comm);
  int rc = PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm);
  done();
  return rc;
}

int MPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype,
                  void *rbuf, const int rcounts[], const int rdispls[], MPI_Datatype rtype,
                  MPI_Comm comm) {
  collective(SDM_ALLTOALLV, comm);
  int rc = PMPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm);
  done();
  return rc;
}

int MPI_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype type,
                       MPI_Op op, MPI_Comm comm) {
  collective(SDM_REDUCE_SCATTER, comm);
  int rc = PMPI_Reduce_scatter(sbuf, rbuf, rcounts, type, op, comm);
  done();
  return rc;
}

int MPI_Reduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype type,
                             MPI_Op op, MPI_Comm comm) {
  collective(SDM_REDUCE_SCATTER_BLOCK, comm);
  int rc = PMPI_Reduce_scatter_block(sbuf, rbuf, rcount, type, op, comm);
  done();
  return rc;
}

#define SCAN(NAME, CALL)                                                                     \
  int NAME(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,            \
           MPI_Comm comm) {                                                                  \
    collective(CALL, comm);                                                                  \
    int rc = P##NAME(sbuf, rbuf, count, type, op, comm);                                     \
    done();                                                                                  \
    return rc;                                                                               \
  }
SCAN(MPI_Scan, SDM_SCAN)
SCAN(MPI_Exscan, SDM_EXSCAN)
