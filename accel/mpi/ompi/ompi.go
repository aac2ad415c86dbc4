//go:build mpi

// Package ompi is accel/mpi's Comm over a real MPI library (Open MPI from
// Debian's libopenmpi-dev, found with pkg-config), through cgo: built only
// with the build tag mpi, so that the default build stays pure Go.
//
// Every call goes to MPI_COMM_WORLD with rank 0 as the root. MPI is
// initialised with MPI_THREAD_SERIALIZED: a rank makes its MPI calls from
// one goroutine at a time (accel/mpi's rank loop is single-threaded), and
// Init locks that goroutine to its OS thread.
package ompi

/*
#cgo pkg-config: ompi-c
#include <mpi.h>
#include <stdlib.h>

static int gb_init(void) {
	int provided;
	return MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided);
}
static int gb_finalize(void) { return MPI_Finalize(); }
static void gb_abort(int code) { MPI_Abort(MPI_COMM_WORLD, code); }
static int gb_rank(void) { int r = -1; MPI_Comm_rank(MPI_COMM_WORLD, &r); return r; }
static int gb_size(void) { int s = 0; MPI_Comm_size(MPI_COMM_WORLD, &s); return s; }
static int gb_bcast_double(double *b, int n) { return MPI_Bcast(b, n, MPI_DOUBLE, 0, MPI_COMM_WORLD); }
static int gb_bcast_long(long long *b, int n) { return MPI_Bcast(b, n, MPI_LONG_LONG, 0, MPI_COMM_WORLD); }
static int gb_ibcast_long(long long *b, int n, MPI_Request *req) { return MPI_Ibcast(b, n, MPI_LONG_LONG, 0, MPI_COMM_WORLD, req); }
static int gb_test(MPI_Request *req, int *done) { return MPI_Test(req, done, MPI_STATUS_IGNORE); }
static int gb_bcast_byte(void *b, int n) { return MPI_Bcast(b, n, MPI_BYTE, 0, MPI_COMM_WORLD); }
static int gb_scatterv_double(double *s, int *counts, int *displs, double *r, int rn) {
	return MPI_Scatterv(s, counts, displs, MPI_DOUBLE, r, rn, MPI_DOUBLE, 0, MPI_COMM_WORLD);
}
static int gb_gatherv_double(double *s, int sn, double *r, int *counts, int *displs) {
	return MPI_Gatherv(s, sn, MPI_DOUBLE, r, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
}
static int gb_scatterv_byte(void *s, int *counts, int *displs, void *r, int rn) {
	return MPI_Scatterv(s, counts, displs, MPI_BYTE, r, rn, MPI_BYTE, 0, MPI_COMM_WORLD);
}
static int gb_gatherv_byte(void *s, int sn, void *r, int *counts, int *displs) {
	return MPI_Gatherv(s, sn, MPI_BYTE, r, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
}
static int gb_version(char *buf, int *len) { return MPI_Get_library_version(buf, len); }
static int gb_host(char *buf, int *len) { return MPI_Get_processor_name(buf, len); }
*/
import "C"

import (
	"fmt"
	"math"
	"runtime"
	"strings"
	"time"
	"unsafe"

	"github.com/gobayes/gobayes/accel/mpi"
)

// World is MPI_COMM_WORLD after Init.
type World struct{ rank, size int }

var _ mpi.Comm = (*World)(nil)

// Init initialises MPI (once per process) and locks the calling goroutine
// to its thread: every later call must come from it.
func Init() (*World, error) {
	runtime.LockOSThread()
	if rc := C.gb_init(); rc != 0 {
		return nil, fmt.Errorf("MPI_Init_thread failed (error %d)", int(rc))
	}
	return &World{rank: int(C.gb_rank()), size: int(C.gb_size())}, nil
}

// Finalize ends MPI; the process should exit after it.
func (w *World) Finalize() { C.gb_finalize() }

// Abort ends every rank of the job with code.
func (w *World) Abort(code int) { C.gb_abort(C.int(code)) }

func (w *World) Rank() int { return w.rank }
func (w *World) Size() int { return w.size }

// Library is MPI_Get_library_version's first line ("Open MPI v4.1.4, …").
func (w *World) Library() string {
	buf := make([]byte, C.MPI_MAX_LIBRARY_VERSION_STRING)
	var n C.int
	C.gb_version((*C.char)(unsafe.Pointer(&buf[0])), &n)
	s := string(buf[:n])
	if i := strings.IndexAny(s, ",\n"); i > 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// Host is MPI_Get_processor_name.
func (w *World) Host() string {
	buf := make([]byte, C.MPI_MAX_PROCESSOR_NAME)
	var n C.int
	C.gb_host((*C.char)(unsafe.Pointer(&buf[0])), &n)
	return string(buf[:n])
}

func check(what string, rc C.int) {
	if rc != 0 {
		// MPI's default error handler aborts the job before this; a
		// library set to return errors gets a panic the rank reports.
		panic(fmt.Sprintf("%s failed (MPI error %d)", what, int(rc)))
	}
}

func count(n int) C.int {
	if n > math.MaxInt32 {
		panic(fmt.Sprintf("an MPI message of %d elements is over MPI's 2³¹-1 limit", n))
	}
	return C.int(n)
}

func pd(v []float64) *C.double {
	if len(v) == 0 {
		return nil
	}
	return (*C.double)(unsafe.Pointer(&v[0]))
}

func pb(v []byte) unsafe.Pointer {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Pointer(&v[0])
}

// countsDispls are counts and their offsets as C ints.
func countsDispls(counts []int) (c, d []C.int) {
	c, d = make([]C.int, len(counts)), make([]C.int, len(counts))
	off := 0
	for i, n := range counts {
		c[i], d[i] = count(n), count(off)
		off += n
	}
	return c, d
}

// Waiting for a broadcast: MPI polls until it arrives, so a rank waiting
// for rank 0's next command would pin a core for as long as the notebook
// sits idle. BcastInts (every command header is one) polls a non-blocking
// broadcast instead, at full speed for spinFor, which covers the gaps
// between the commands of a run, then sleeping between polls, the pause
// doubling up to maxPause: an idle rank sleeps, and the first command after
// a pause waits at most maxPause more.
const (
	spinFor  = 2 * time.Millisecond
	maxPause = 10 * time.Millisecond
)

func (w *World) BcastInts(v []int64) {
	if len(v) == 0 {
		return
	}
	// The buffer is Go memory that MPI writes after the call returns: pin
	// it until the broadcast completes.
	var pin runtime.Pinner
	pin.Pin(&v[0])
	defer pin.Unpin()
	var req C.MPI_Request
	check("MPI_Ibcast", C.gb_ibcast_long((*C.longlong)(unsafe.Pointer(&v[0])), count(len(v)), &req))
	start := time.Now()
	pause := 20 * time.Microsecond
	for {
		var done C.int
		check("MPI_Test", C.gb_test(&req, &done))
		if done != 0 {
			return
		}
		if time.Since(start) > spinFor {
			time.Sleep(pause)
			pause = min(2*pause, maxPause)
		}
	}
}

func (w *World) BcastFloats(v []float64) {
	if len(v) > 0 {
		check("MPI_Bcast", C.gb_bcast_double(pd(v), count(len(v))))
	}
}

func (w *World) BcastBytes(v []byte) {
	if len(v) > 0 {
		check("MPI_Bcast", C.gb_bcast_byte(pb(v), count(len(v))))
	}
}

func (w *World) ScattervFloats(send []float64, counts []int, recv []float64) {
	c, d := countsDispls(counts)
	check("MPI_Scatterv", C.gb_scatterv_double(pd(send), &c[0], &d[0], pd(recv), count(len(recv))))
}

func (w *World) GathervFloats(send []float64, recv []float64, counts []int) {
	c, d := countsDispls(counts)
	check("MPI_Gatherv", C.gb_gatherv_double(pd(send), count(len(send)), pd(recv), &c[0], &d[0]))
}

func (w *World) ScattervBytes(send []byte, counts []int, recv []byte) {
	c, d := countsDispls(counts)
	check("MPI_Scatterv", C.gb_scatterv_byte(pb(send), &c[0], &d[0], pb(recv), count(len(recv))))
}

func (w *World) GathervBytes(send []byte, recv []byte, counts []int) {
	c, d := countsDispls(counts)
	check("MPI_Gatherv", C.gb_gatherv_byte(pb(send), count(len(send)), pb(recv), &c[0], &d[0]))
}
