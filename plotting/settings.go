package plotting

import (
	"fmt"
	"strings"

	"github.com/gobayes/gobayes/ppl/posterior"
)

// Settings are a figure's options. The zero value (and a nil *Settings)
// means the defaults documented on each field.
type Settings struct {
	// Width and Height are the figure's size in CSS pixels, the size a
	// notebook shows it at; 0 lets the plot choose from its number of
	// panels (800 px wide by default, see Defaults).
	Width, Height int
	// DPI is the pixel density of a PNG, in dots per inch: the image
	// holds Width·DPI/96 × Height·DPI/96 pixels and shows at Width ×
	// Height. 0 means the notebook's default, 192 unless SetDefaults
	// says otherwise: twice the pixels, sharp on a high-density screen.
	DPI int
	// FontScale multiplies the size of every text; 0 means the
	// notebook's default, 1 unless SetDefaults says otherwise.
	FontScale float64
	// Format is the image format the figure offers to a notebook: "png"
	// (the default) or "svg".
	Format string
	// Chains are the chains to draw, numbered from 1; nil means all.
	Chains []int
	// Vars are variable or column names, added to those given as
	// arguments.
	Vars []string
	// Title replaces the figure's title.
	Title string
	// Prob is the probability of intervals (HDI, forest); 0 means 0.94.
	Prob float64
	// Median marks the median instead of the mean.
	Median bool
	// Ref are reference values: one for every panel, or one per panel.
	Ref []float64
	// ROPE is a region of practical equivalence [low, high].
	ROPE []float64
	// Histogram draws histograms instead of densities.
	Histogram bool
	// Bins is the number of histogram bins; 0 chooses one.
	Bins int
	// MaxLag is the largest autocorrelation lag; 0 means 100.
	MaxLag int
	// Labels name the models of a forest across models, or the data of
	// a predictive check.
	Labels []string
	// Axes names a Band's x and y axes (nil: x and y).
	Axes []string
	// MaxDraws is how many predictive draws a PPC overlays; 0 means 50.
	MaxDraws int
	// Log names variables or columns drawn as their logarithm (a
	// positive scale such as tau: a funnel's neck opens up on the log
	// scale). Forest ignores it.
	Log []string

	// sizeScale scales the plot's own default size (Defaults.Width).
	sizeScale float64
}

// Option changes one setting. The functions below make them.
type Option func(*Settings)

// Size sets the figure's width and height in CSS pixels.
func Size(width, height int) Option {
	return func(s *Settings) { s.Width, s.Height = width, height }
}

// DPI sets the pixel density of the PNG in dots per inch (96: one pixel
// per CSS pixel; 192, the default: two).
func DPI(dpi int) Option { return func(s *Settings) { s.DPI = dpi } }

// FontScale multiplies the size of every text of the figure.
func FontScale(scale float64) Option { return func(s *Settings) { s.FontScale = scale } }

// Format sets the image format the figure offers: "png" or "svg".
func Format(format string) Option { return func(s *Settings) { s.Format = format } }

// Chains selects chains by number, from 1.
func Chains(chains ...int) Option {
	return func(s *Settings) { s.Chains = append([]int(nil), chains...) }
}

// Vars selects variables or columns by name.
func Vars(names ...string) Option {
	return func(s *Settings) { s.Vars = append(s.Vars, names...) }
}

// Title sets the figure's title.
func Title(title string) Option { return func(s *Settings) { s.Title = title } }

// Prob sets the probability of the intervals drawn (0 < p < 1).
func Prob(p float64) Option { return func(s *Settings) { s.Prob = p } }

// Median marks the median instead of the mean.
func Median() Option { return func(s *Settings) { s.Median = true } }

// Ref sets reference values: one for every panel, or one per panel.
func Ref(values ...float64) Option {
	return func(s *Settings) { s.Ref = append([]float64(nil), values...) }
}

// ROPE sets a region of practical equivalence.
func ROPE(low, high float64) Option {
	return func(s *Settings) { s.ROPE = []float64{low, high} }
}

// Histogram draws histograms instead of kernel densities.
func Histogram() Option { return func(s *Settings) { s.Histogram = true } }

// Bins sets the number of histogram bins.
func Bins(n int) Option { return func(s *Settings) { s.Bins = n } }

// MaxLag sets the largest autocorrelation lag.
func MaxLag(n int) Option { return func(s *Settings) { s.MaxLag = n } }

// Labels names the models of a forest across models.
func Labels(names ...string) Option {
	return func(s *Settings) { s.Labels = append([]string(nil), names...) }
}

// Axes names the x and y axes of a Band.
func Axes(x, y string) Option {
	return func(s *Settings) { s.Axes = []string{x, y} }
}

// Log draws the named variables or columns as their logarithm; with no
// names, every one drawn (for PPC, the data and their replicates).
func Log(names ...string) Option {
	if len(names) == 0 {
		names = []string{"*"}
	}
	return func(s *Settings) { s.Log = append(s.Log, names...) }
}

// MaxDraws sets how many predictive draws a PPC overlays.
func MaxDraws(n int) Option { return func(s *Settings) { s.MaxDraws = n } }

// request is what a plotting call was asked for: the posterior (when the
// plot takes one), the names, the settings.
type request struct {
	fit   *posterior.Posterior
	fits  []*posterior.Posterior
	names []string
	set   Settings
}

// posteriorHolder is what a wrapper of a posterior (such as a sampling
// result) implements to be plotted directly.
type posteriorHolder interface {
	Posterior() *posterior.Posterior
}

// parseFit turns the first argument of a plotting call into posteriors.
func parseFit(plot string, fit any, many bool) (*posterior.Posterior, []*posterior.Posterior, error) {
	switch f := fit.(type) {
	case *posterior.Posterior:
		if f == nil {
			return nil, nil, fmt.Errorf("plotting: %s got a nil posterior; pass the result of m.Sample(...)", plot)
		}
		return f, nil, nil
	case posterior.Posterior:
		return &f, nil, nil
	case posteriorHolder:
		p := f.Posterior()
		if p == nil {
			return nil, nil, fmt.Errorf("plotting: %s got a %T holding no posterior; sample the model first", plot, fit)
		}
		return p, nil, nil
	case []*posterior.Posterior:
		if !many {
			break
		}
		if len(f) == 0 {
			return nil, nil, fmt.Errorf("plotting: %s got no posteriors; pass one or more results of m.Sample(...)", plot)
		}
		for i, p := range f {
			if p == nil {
				return nil, nil, fmt.Errorf("plotting: %s got a nil posterior at index %d; pass results of m.Sample(...)", plot, i)
			}
		}
		return f[0], f, nil
	case nil:
		return nil, nil, fmt.Errorf("plotting: %s got nil instead of a posterior; pass the result of m.Sample(...)", plot)
	}
	want := "a *posterior.Posterior (the result of m.Sample(...))"
	if many {
		want += " or a []*posterior.Posterior"
	}
	return nil, nil, fmt.Errorf("plotting: %s got a %T; pass %s", plot, fit, want)
}

// parseArgs sorts a call's trailing arguments into names and settings.
func parseArgs(plot string, args []any) ([]string, Settings, error) {
	var names []string
	var set Settings
	for i, a := range args {
		switch v := a.(type) {
		case string:
			names = append(names, v)
		case []string:
			names = append(names, v...)
		case Option:
			if v != nil {
				v(&set)
			}
		case func(*Settings):
			if v != nil {
				v(&set)
			}
		case *Settings:
			if v != nil {
				set = mergeSettings(set, *v)
			}
		case Settings:
			set = mergeSettings(set, v)
		default:
			return nil, set, fmt.Errorf("plotting: %s argument %d is a %T; pass variable names as strings and options such as plotting.Size(800, 600)", plot, i+2, a)
		}
	}
	names = append(names, set.Vars...)
	if err := checkSettings(plot, set); err != nil {
		return names, set, err
	}
	set, err := withDefaults(set)
	return names, set, err
}

// mergeSettings overlays the set fields of b on a.
func mergeSettings(a, b Settings) Settings {
	if b.Width != 0 || b.Height != 0 {
		a.Width, a.Height = b.Width, b.Height
	}
	if b.DPI != 0 {
		a.DPI = b.DPI
	}
	if b.FontScale != 0 {
		a.FontScale = b.FontScale
	}
	if b.Format != "" {
		a.Format = b.Format
	}
	if b.Chains != nil {
		a.Chains = b.Chains
	}
	a.Vars = append(a.Vars, b.Vars...)
	if b.Title != "" {
		a.Title = b.Title
	}
	if b.Prob != 0 {
		a.Prob = b.Prob
	}
	a.Median = a.Median || b.Median
	if b.Ref != nil {
		a.Ref = b.Ref
	}
	if b.ROPE != nil {
		a.ROPE = b.ROPE
	}
	a.Histogram = a.Histogram || b.Histogram
	if b.Bins != 0 {
		a.Bins = b.Bins
	}
	if b.MaxLag != 0 {
		a.MaxLag = b.MaxLag
	}
	if b.Labels != nil {
		a.Labels = b.Labels
	}
	if b.MaxDraws != 0 {
		a.MaxDraws = b.MaxDraws
	}
	a.Log = append(a.Log, b.Log...)
	return a
}

func checkSettings(plot string, s Settings) error {
	switch {
	case s.Width < 0 || s.Height < 0 || (s.Width == 0) != (s.Height == 0):
		return fmt.Errorf("plotting: %s size %d×%d is not a size; pass plotting.Size(width, height) with both in pixels, for example Size(800, 600)", plot, s.Width, s.Height)
	case s.Width > 20000 || s.Height > 20000:
		return fmt.Errorf("plotting: %s size %d×%d is too large; keep both below 20000 pixels", plot, s.Width, s.Height)
	case s.DPI < 0 || s.DPI > 1200:
		return fmt.Errorf("plotting: %s DPI %d is out of range; pass plotting.DPI(d) with 0 < d ≤ 1200 (96 is the screen default)", plot, s.DPI)
	case s.FontScale < 0 || s.FontScale > 10:
		return fmt.Errorf("plotting: %s font scale %g is out of range; pass plotting.FontScale(f) with 0 < f ≤ 10, for example 1.4", plot, s.FontScale)
	case s.Prob < 0 || s.Prob >= 1:
		return fmt.Errorf("plotting: %s probability %g is out of range; pass plotting.Prob(p) with 0 < p < 1, for example 0.94", plot, s.Prob)
	case s.ROPE != nil && (len(s.ROPE) != 2 || !(s.ROPE[0] < s.ROPE[1])):
		return fmt.Errorf("plotting: %s ROPE %v is not an interval; pass plotting.ROPE(low, high) with low < high", plot, s.ROPE)
	case s.Bins < 0 || s.MaxLag < 0 || s.MaxDraws < 0:
		return fmt.Errorf("plotting: %s Bins, MaxLag and MaxDraws must not be negative", plot)
	}
	switch strings.ToLower(s.Format) {
	case "", "png", "svg":
	default:
		return fmt.Errorf("plotting: %s format %q is not offered; pass plotting.Format(\"png\") or plotting.Format(\"svg\") (Save also writes .pdf)", plot, s.Format)
	}
	return nil
}

// prob returns the interval probability with its default.
func (s Settings) prob() float64 {
	if s.Prob == 0 {
		return 0.94
	}
	return s.Prob
}

// ref returns the reference value of panel i, if any.
func (s Settings) ref(i int) (float64, bool) {
	switch {
	case len(s.Ref) == 1:
		return s.Ref[0], true
	case i < len(s.Ref):
		return s.Ref[i], true
	}
	return 0, false
}
