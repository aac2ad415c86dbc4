package plotting

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gobayes/gobayes/display"
)

// checkRenders renders a figure as PNG and SVG and checks both decode.
func checkRenders(t *testing.T, f *Figure) {
	t.Helper()
	if err := f.Err(); err != nil {
		t.Fatalf("figure has error: %v", err)
	}
	b, err := f.PNG()
	if err != nil {
		t.Fatalf("PNG: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("PNG does not decode: %v", err)
	}
	// The PNG holds DPI/96 pixels per CSS pixel of the figure's size.
	w, h, dpi := f.Size()
	if got := img.Bounds().Size(); got.X != w*dpi/96 || got.Y != h*dpi/96 {
		t.Errorf("PNG is %v px, want %d×%d", got, w*dpi/96, h*dpi/96)
	}
	svg, err := f.Render("svg")
	if err != nil {
		t.Fatalf("SVG: %v", err)
	}
	if !bytes.HasPrefix(bytes.TrimSpace(svg), []byte("<?xml")) || !bytes.Contains(svg, []byte("<svg")) {
		t.Errorf("SVG does not look like SVG: %.80q", svg)
	}
}

// panelTitled returns the panels whose title starts with prefix.
func panelsTitled(f *Figure, prefix string) []Panel {
	var out []Panel
	for _, p := range f.Panels() {
		if strings.HasPrefix(p.Title, prefix) {
			out = append(out, p)
		}
	}
	return out
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func legendLabels(f *Figure) []string {
	var out []string
	for _, e := range f.Legend() {
		out = append(out, e.Label)
	}
	return out
}

func TestFigureFormats(t *testing.T) {
	fit := fixture()
	png1 := Trace(fit, "mu")
	b := png1.Bundle()
	if _, ok := b.Data["image/png"]; !ok {
		t.Errorf("default figure's bundle has %v; want image/png", keys(b.Data))
	}
	if _, ok := b.Data["image/svg+xml"]; ok {
		t.Error("default figure's bundle offers SVG too; it should offer PNG only")
	}
	svg := Trace(fit, "mu", Format("svg")).Bundle()
	if s, ok := svg.Data["image/svg+xml"].(string); !ok || !strings.Contains(s, "<svg") {
		t.Errorf("SVG figure's bundle has %v; want an SVG document", keys(svg.Data))
	}
	if _, ok := svg.Data["image/png"]; ok {
		t.Error("SVG figure's bundle offers PNG too")
	}
	if txt, _ := b.Data["text/plain"].(string); !strings.Contains(txt, "Trace of mu") {
		t.Errorf("text/plain = %q, want it to name the figure", txt)
	}
	dir := t.TempDir()
	for _, name := range []string{"a.png", "a.svg", "a.pdf"} {
		path := filepath.Join(dir, name)
		if err := png1.Save(path); err != nil {
			t.Errorf("Save(%s): %v", name, err)
			continue
		}
		if st, err := os.Stat(path); err != nil || st.Size() == 0 {
			t.Errorf("Save(%s) wrote nothing", name)
		}
	}
	if err := png1.Save(filepath.Join(dir, "a.gif")); err == nil {
		t.Error("Save(.gif) succeeded; want an error naming the formats")
	}
	w, h, dpi := Trace(fit, "mu", Size(640, 480), DPI(150)).Size()
	if w != 640 || h != 480 || dpi != 150 {
		t.Errorf("Size/DPI options give %d×%d at %d, want 640×480 at 150", w, h, dpi)
	}
	checkRenders(t, Trace(fit, "mu", Size(640, 480), DPI(150)))
}

func TestBadInput(t *testing.T) {
	fit := fixture()
	one := fixture()
	one.Chains = one.Chains[:1]
	empty := fixture()
	empty.Chains = nil
	tests := []struct {
		name string
		fig  *Figure
		want []string // fragments the message must hold
	}{
		{"unknown variable", Trace(fit, "sigma"), []string{"plotting: Trace", `"sigma"`, "mu, tau, theta"}},
		{"empty posterior", Posterior(empty), []string{"plotting: Posterior", "empty posterior", "m.Sample"}},
		{"one chain rank", Rank(one, "mu"), []string{"plotting: Rank", "at least two chains", "1 chain"}},
		{"no such chain", Trace(fit, Chains(7)), []string{"no chain 7", "4 chains"}},
		{"bad argument", Trace(fit, 3.5), []string{"float64", "variable names as strings"}},
		{"nil posterior", Trace(nil), []string{"nil", "m.Sample"}},
		{"wrong type", Trace(42), []string{"int", "*posterior.Posterior"}},
		{"bad prob", Posterior(fit, Prob(1.5)), []string{"Prob", "0 < p < 1"}},
		{"bad format", Trace(fit, Format("gif")), []string{"gif", "svg"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.fig.Err()
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			if _, perr := tc.fig.PNG(); perr == nil {
				t.Error("PNG() of an error figure returned no error")
			}
			if _, serr := tc.fig.SVG(); serr == nil {
				t.Error("SVG() of an error figure returned no error")
			}
			if txt := tc.fig.Bundle().Data["text/plain"]; txt != err.Error() {
				t.Errorf("bundle text %q, want the error", txt)
			}
			if len(tc.fig.Bundle().Data) != 1 {
				t.Errorf("error figure's bundle has %v, want text/plain only", keys(tc.fig.Bundle().Data))
			}
			if tc.fig.String() != err.Error() {
				t.Errorf("String() = %q, want the error", tc.fig.String())
			}
		})
	}
}

// The kernel renders a cell's value with display.Render: a figure must
// give exactly one image and its text.
func TestDisplayRender(t *testing.T) {
	fit := fixture()
	tests := []struct {
		name string
		fig  *Figure
		want []string
	}{
		{"png", Trace(fit, "mu"), []string{"image/png", "text/plain"}},
		{"svg", Trace(fit, "mu", Format("svg")), []string{"image/png", "image/svg+xml", "text/plain"}},
		{"error", Trace(fit, "nope"), []string{"text/plain"}},
	}
	for _, tc := range tests {
		b := display.Render(tc.fig)
		got := keys(b.Data)
		sort.Strings(got)
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%s: bundle has %v, want %v", tc.name, got, tc.want)
		}
		if tc.name == "error" {
			if txt, _ := b.Data["text/plain"].(string); !strings.Contains(txt, `unknown variable "nope"`) {
				t.Errorf("error bundle text %q", txt)
			}
		}
	}
}

func TestBundleDisplaySize(t *testing.T) {
	// Size(800, 600) at 300 DPI is a 2500×1875-pixel PNG laid out as
	// 800×600 CSS px.
	f := Trace(fixture(), "mu", Size(800, 600), DPI(300))
	md, _ := f.Bundle().Metadata["image/png"].(map[string]any)
	if md["width"] != 800 || md["height"] != 600 {
		t.Errorf("PNG metadata %v, want width 800, height 600", md)
	}
	if w, h := pngSize(t, f); w != 2500 || h != 1875 {
		t.Errorf("PNG is %d×%d px, want 2500×1875", w, h)
	}
}
