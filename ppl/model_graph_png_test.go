package ppl

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"testing"
)

// The graph's PNG (what an untrusted notebook shows) is the SVG's drawing:
// twice its size, white where the SVG is empty, and each node drawn where
// the layout puts it, in the node's fill with a dark outline.
func TestGraphPNG(t *testing.T) {
	g := schoolsWithCoords().Graph()
	b, err := g.PNG()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if dir := os.Getenv("GOBAYES_GRAPH_PNG"); dir != "" {
		os.WriteFile(dir, b, 0o644) // to look at
	}
	l := g.layout()
	const s = graphPNGScale
	if got := img.Bounds().Size(); got != (image.Point{int(l.w * s), int(l.h * s)}) {
		t.Errorf("PNG is %v pixels, the layout %.0f×%.0f at %d×", got, l.w, l.h, s)
	}
	at := func(x, y float64) color.RGBA {
		r, g, b, _ := img.At(int(x*s), int(y*s)).RGBA()
		return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 255}
	}
	if w, h := g.PNGSize(); w != int(l.w+0.5) || h != int(l.h+0.5) {
		t.Errorf("PNGSize %d×%d, the layout %.0f×%.0f", w, h, l.w, l.h)
	}
	if c := at(1, 1); c != (color.RGBA{255, 255, 255, 255}) {
		t.Errorf("the corner is %v, want white", c)
	}
	for _, n := range l.nodes {
		// Inside the node, left of its text: the fill.
		if c, want := at(n.x-gvNodeW/2+6, n.y), hexColour(nodeFill(n.kind)).(color.RGBA); c != want {
			t.Errorf("node %s (%s): fill %v, want %v", n.name, n.kind, c, want)
		}
		// On its left edge: the outline, darker than the fill (dashed for
		// data, so looked for along the edge).
		outline := false
		for y := n.y - 10; y <= n.y+10; y += 0.5 {
			c := at(n.x-gvNodeW/2+0.4, y)
			outline = outline || int(c.R)+int(c.G)+int(c.B) < 3*160
		}
		if !outline {
			t.Errorf("node %s: no outline at its left edge", n.name)
		}
		// Its name in black, somewhere on the line above the centre.
		dark := false
		for x := n.x - 20; x < n.x+20; x += 0.5 {
			if c := at(x, n.y-8); c.R < 80 && c.G < 80 && c.B < 80 {
				dark = true
			}
		}
		if !dark {
			t.Errorf("node %s: no text drawn at its name", n.name)
		}
	}
}
