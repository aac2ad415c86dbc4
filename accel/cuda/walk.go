//go:build cuda

package cuda

import (
	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/accel/cuda/cgen"
)

var _ accel.Walker = (*Compiled)(nil)

// Walk runs a segment of random-walk Metropolis on the device (cgen.Walker
// over this program's gb_rwmh): one launch for every chain and every step
// of the segment, the state staying in device memory; only the count of
// acceptances, the kept chains' draws and, when asked, the state cross to
// the host.
func (c *Compiled) Walk(w *accel.Walk) error {
	unbind, err := c.b.bind()
	if err != nil {
		return err
	}
	defer unbind()
	if c.walker == nil {
		c.walker = cgen.NewWalker(c, c.src.Dim, c.src.Frame)
	}
	return c.walker.Walk(w)
}

// Walks: one thread per chain suits every program the one-thread
// kernels suit (not the data-parallel rule's).
func (c *Compiled) Walks(chains int) bool { return !c.dataParallel(chains) }

// Iterates: as Walks.
func (c *Compiled) Iterates(chains int) bool { return !c.dataParallel(chains) }
