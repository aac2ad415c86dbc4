package infer

import (
	"strings"
	"testing"
)

// Defaults: the chain counts a run gets when it does not say, and the
// engine each sampler runs on.
func TestDefaults(t *testing.T) {
	for _, c := range []struct {
		sampler  Sampler
		lockstep bool
		chains   int
		err      string
	}{
		{DefaultSampler, false, 4, ""},
		{DefaultSampler, true, DefaultLockstepChains, ""}, // ChEES
		{RWMH, true, 4, ""},
		{MEADS, true, DefaultLockstepChains, ""},
		{RWMH, false, 0, "lockstep"},
		{ChEES, false, 0, "lockstep"},
		{NUTS, true, 4, ""}, // package lockstep's NUTS, the path of a device
		{HMC, true, 0, "one chain per goroutine"},
	} {
		cfg, err := Config{Sampler: c.sampler}.Defaults(0, c.lockstep)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%v (lockstep %v): error %v, want one saying %q", c.sampler, c.lockstep, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%v (lockstep %v): %v", c.sampler, c.lockstep, err)
		case c.err == "" && cfg.Chains != c.chains:
			t.Errorf("%v (lockstep %v): %d chains by default, want %d", c.sampler, c.lockstep, cfg.Chains, c.chains)
		}
	}
}
