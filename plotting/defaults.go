package plotting

import (
	"fmt"
	"strings"
	"sync"
)

// Defaults are what every figure starts from, set once for a whole
// notebook with SetDefaults: for a projector, larger figures with larger
// text. A figure's own options (Size, FontScale, Format, DPI) win over
// them. The zero value of each field means the default it documents.
type Defaults struct {
	// Width is the width, in CSS pixels, of a full-width figure; 0
	// means 800. Every plot's own default size scales with it (a
	// 600×360 Dist is 750×450 at Width 1000); a Size option is kept as
	// given.
	Width int
	// FontScale multiplies the size of every text; 0 means 1.
	FontScale float64
	// Format is the image format figures offer: "png" (the default) or
	// "svg".
	Format string
	// DPI is the pixel density of a PNG: a figure shows at its size in
	// CSS pixels and holds DPI/96 times as many pixels each way. 0 means
	// 192, twice the pixels, sharp on high-density screens and zoomed
	// projectors; 96 gives one pixel per CSS pixel.
	DPI int
}

// The defaults a figure falls back on when neither its options nor
// SetDefaults say otherwise.
const (
	fullWidth  = 800 // CSS px: the plots' own default sizes are for this width
	defaultDPI = 192
)

var (
	defaultsMu sync.Mutex
	defaults   Defaults
)

// SetDefaults makes d the defaults of every figure made after it and
// returns the previous ones, so a notebook (or a test) can restore them:
//
//	plotting.SetDefaults(plotting.Defaults{Width: 1000, FontScale: 1.4})
//	prev := plotting.SetDefaults(plotting.Defaults{Format: "svg"})
//	plotting.SetDefaults(prev)
//
// SetDefaults(plotting.Defaults{}) restores the documented defaults. A
// value out of range makes every later figure carry an error saying so.
func SetDefaults(d Defaults) (previous Defaults) {
	defaultsMu.Lock()
	defer defaultsMu.Unlock()
	previous, defaults = defaults, d
	return previous
}

func currentDefaults() Defaults {
	defaultsMu.Lock()
	defer defaultsMu.Unlock()
	return defaults
}

// check says what is wrong with defaults that no figure could use.
func (d Defaults) check() error {
	switch {
	case d.Width < 0 || d.Width > 20000:
		return fmt.Errorf("plotting: SetDefaults was given Width %d; pass a width in CSS pixels, for example 1000, or 0 for 800", d.Width)
	case d.FontScale < 0 || d.FontScale > 10:
		return fmt.Errorf("plotting: SetDefaults was given FontScale %g; pass a factor such as 1.4, or 0 for 1", d.FontScale)
	case d.DPI < 0 || d.DPI > 1200:
		return fmt.Errorf("plotting: SetDefaults was given DPI %d; pass 0 < DPI ≤ 1200 (192 is the default, 96 one pixel per CSS pixel)", d.DPI)
	}
	switch strings.ToLower(d.Format) {
	case "", "png", "svg":
	default:
		return fmt.Errorf("plotting: SetDefaults was given Format %q; pass \"png\" or \"svg\"", d.Format)
	}
	return nil
}

// withDefaults fills the settings a call left unset from the notebook's
// defaults: format, DPI, font scale, and the scale of the plot's own size.
func withDefaults(set Settings) (Settings, error) {
	d := currentDefaults()
	if err := d.check(); err != nil {
		return set, err
	}
	if set.Format == "" {
		set.Format = d.Format
	}
	if set.DPI == 0 {
		set.DPI = d.DPI
	}
	if set.FontScale == 0 {
		set.FontScale = d.FontScale
	}
	set.sizeScale = 1
	if d.Width > 0 {
		set.sizeScale = float64(d.Width) / fullWidth
	}
	return set, nil
}
