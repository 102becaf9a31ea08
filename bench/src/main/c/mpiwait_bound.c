/* A lower bound on what sdm's MPI wait records can cost at the start of a request
 * (runtime/.../launch/sdm_mpiwait.c), for bench/mpiwait.sh's --before: `bench/run mpiwait --before
 * bench/src/main/c/mpiwait_bound.c` puts it beside the library in one run. It is not a wait-records
 * library: it writes, for each MPI_Isend and MPI_Irecv, the least a start must (its call, peer and
 * tag, and where its request goes) into the next slot of a ring laid out as the library's, moves
 * the ring on and jumps to the MPI call: no stack frame, no read of the handle the call returns
 * (without which a wait's requests cannot be matched to their starts), and nothing for the waits.
 * What any design that records every start in memory costs on the loop, before it does the rest. */
#include <mpi.h>
#include <stdint.h>

struct op {
  uint32_t call_on;
  int32_t peer, tag, pad;
  int64_t seq;
};

static volatile struct {
  char header[568];
  uint8_t next;
  struct op requests[256];
} state;

/* The MPI calls through the global offset table, as the library calls them. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
extern __typeof__(PMPI_Isend) PMPI_Isend __attribute__((noplt));
extern __typeof__(PMPI_Irecv) PMPI_Irecv __attribute__((noplt));
#endif

#define START(NAME, CALL, BUFFER)                                                                 \
  int NAME(BUFFER buf, int count, MPI_Datatype type, int peer, int tag, MPI_Comm comm,            \
           MPI_Request *request) {                                                                \
    volatile struct op *op = &state.requests[state.next];                                         \
    __asm__("" : "+r"(op));                                                                       \
    op->peer = peer;                                                                              \
    op->tag = tag;                                                                                \
    op->call_on = CALL;                                                                           \
    op->seq = (int64_t)(intptr_t)request;                                                         \
    __asm__ volatile("" ::: "memory");                                                            \
    *(uint8_t *)&state.next += 1;                                                                 \
    return P##NAME(buf, count, type, peer, tag, comm, request);                                   \
  }
START(MPI_Isend, 9, const void *)
START(MPI_Irecv, 13, void *)
