//go:build cuda

package cuda

import (
	"github.com/gobayes/gobayes/accel"
	"github.com/gobayes/gobayes/accel/cuda/cgen"
)

var _ accel.NUTSRunner = (*Compiled)(nil)

// RunNUTS runs a segment of lockstep NUTS on the device (cgen.NUTS over
// this program's gb_nuts): one launch for every chain and every
// iteration of the segment, the chains' state and adaptation staying in
// device memory; only the kept chains' draws and, when asked, the state
// cross to the host.
func (c *Compiled) RunNUTS(s *accel.NUTSSegment) error {
	unbind, err := c.b.bind()
	if err != nil {
		return err
	}
	defer unbind()
	if c.nuts == nil {
		c.nuts = cgen.NewNUTS(c, c.src.Dim, c.src.Frame)
	}
	return c.nuts.Run(s)
}

// RunsNUTS: as Walks (one thread per chain).
func (c *Compiled) RunsNUTS(chains int) bool { return !c.dataParallel(chains) }
