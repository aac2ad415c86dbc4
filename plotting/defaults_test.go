package plotting

import (
	"bytes"
	"image/png"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/display"
)

// pngSize decodes a figure's PNG and returns its size in pixels.
func pngSize(t *testing.T, f *Figure) (int, int) {
	t.Helper()
	b, err := f.PNG()
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return cfg.Width, cfg.Height
}

// TestHiDPIByDefault: a figure shows at its size in CSS pixels and holds
// twice the pixels each way (192 DPI), which the bundle's metadata tells
// the notebook, so text stays sharp on a projector at 150% zoom.
func TestHiDPIByDefault(t *testing.T) {
	f := Dist([]float64{1, 2, 2, 3, 4})
	w, h, dpi := f.Size()
	if w != 600 || h != 360 || dpi != 192 {
		t.Errorf("Size() = %d×%d at %d DPI, want 600×360 at 192", w, h, dpi)
	}
	if pw, ph := pngSize(t, f); pw != 1200 || ph != 720 {
		t.Errorf("PNG is %d×%d px, want 1200×720 (twice the CSS size)", pw, ph)
	}
	b := display.Render(f)
	md, _ := b.Metadata[display.MIMEPNG].(map[string]any)
	if md["width"] != 600 || md["height"] != 360 {
		t.Errorf("PNG metadata %v, want width 600, height 360", md)
	}
	// DPI(96): one pixel per CSS pixel, shown at the same size.
	g := Dist([]float64{1, 2, 2, 3, 4}, DPI(96))
	if pw, ph := pngSize(t, g); pw != 600 || ph != 360 {
		t.Errorf("DPI(96) PNG is %d×%d px, want 600×360", pw, ph)
	}
	if md, _ := g.Bundle().Metadata[display.MIMEPNG].(map[string]any); md["width"] != 600 {
		t.Errorf("DPI(96) metadata %v, want width 600", md)
	}
}

// TestSetDefaults: one call sets size, text scale, format and DPI for
// every later figure; an option of a figure still wins; the previous
// defaults come back to restore them.
func TestSetDefaults(t *testing.T) {
	xs := []float64{1, 2, 2, 3, 4}
	base := Dist(xs)
	prev := SetDefaults(Defaults{Width: 1000, FontScale: 1.5, Format: "svg", DPI: 96})
	defer SetDefaults(prev)
	if prev != (Defaults{}) {
		t.Errorf("first SetDefaults returned %+v, want the zero Defaults", prev)
	}
	f := Dist(xs)
	// Dist's own 600×360 scales with the full width: 1000/800.
	if w, h, dpi := f.Size(); w != 750 || h != 450 || dpi != 96 {
		t.Errorf("Size() = %d×%d at %d, want 750×450 at 96", w, h, dpi)
	}
	if f.sty.tick != 1.5*base.sty.tick || f.sty.title != 1.5*base.sty.title {
		t.Errorf("text sizes tick %v title %v, want 1.5× %v and %v", f.sty.tick, f.sty.title, base.sty.tick, base.sty.title)
	}
	b := f.Bundle()
	if _, ok := b.Data[display.MIMESVG]; !ok {
		t.Errorf("bundle %v has no SVG with Format \"svg\" as default", keys(b.Data))
	}
	g := Dist(xs, Size(640, 480), Format("png"), FontScale(1))
	if w, h, _ := g.Size(); w != 640 || h != 480 {
		t.Errorf("Size option gives %d×%d, want 640×480 as given", w, h)
	}
	if _, ok := g.Bundle().Data[display.MIMEPNG]; !ok || g.sty.tick != base.sty.tick {
		t.Errorf("Format(\"png\") and FontScale(1) do not win over the defaults")
	}
	if got := SetDefaults(Defaults{Format: "jpg"}); got != (Defaults{Width: 1000, FontScale: 1.5, Format: "svg", DPI: 96}) {
		t.Errorf("SetDefaults returned %+v, want the defaults it replaced", got)
	}
	if err := Dist(xs).Err(); err == nil || !strings.Contains(err.Error(), "SetDefaults") {
		t.Errorf("bad default format: error %v, want one naming SetDefaults", err)
	}
	SetDefaults(Defaults{})
	if w, _, dpi := Dist(xs).Size(); w != 600 || dpi != 192 {
		t.Errorf("after SetDefaults(Defaults{}): %d px at %d DPI, want 600 at 192", w, dpi)
	}
}
