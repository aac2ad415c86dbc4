package ppl

import (
	"bytes"
	"fmt"
	"image/color"
	"image/png"
	"math"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// graphPNGScale is the PNG's pixels per pixel of the layout: twice, so
// the picture stays sharp on a high-density screen or a projector.
const graphPNGScale = 2

// PNG draws the graph as SVG draws it, for where SVG is not shown: Jupyter
// Notebook shows no SVG of an untrusted notebook (one opened before `make
// run` signed it, or downloaded alone), and falls back to this image.
func (g *ModelGraph) PNG() ([]byte, error) {
	l := g.layout()
	const s = graphPNGScale
	c := vgimg.NewWith(vgimg.UseWH(vg.Length(l.w*s), vg.Length(l.h*s)), vgimg.UseDPI(72),
		vgimg.UseBackgroundColor(color.White))
	d := graphCanvas{c: draw.New(c), h: l.h, s: s}
	for _, p := range l.plates {
		d.roundRect(p.x, p.y, p.w, p.h, 8, gvPlateFill, gvPlateLine, 1, nil)
		d.text(p.x+p.w-6, p.y+p.h-6, p.label, 11, false, gvSubtle, draw.XRight)
	}
	for _, n := range l.nodes {
		for _, p := range n.parents {
			a := l.nodes[p]
			d.arrow(a.x, a.y+gvNodeH/2, n.x, n.y-gvNodeH/2)
		}
	}
	for _, n := range l.nodes {
		fill := nodeFill(n.kind)
		switch n.kind {
		case "observed", "parameter":
			d.ellipse(n.x, n.y, gvNodeW/2, gvNodeH/2, fill, gvInk, 1.4)
		case "data":
			d.roundRect(n.x-gvNodeW/2, n.y-gvNodeH/2, gvNodeW, gvNodeH, 14, fill, gvInk, 1, []float64{4, 2})
		default:
			d.roundRect(n.x-gvNodeW/2, n.y-gvNodeH/2, gvNodeW, gvNodeH, 3, fill, gvInk, 1.4, nil)
		}
		d.text(n.x, n.y-3, clip(n.name, 18), 13, true, "#000000", draw.XCenter)
		d.text(n.x, n.y+13, clip(n.label, 22), 11, false, gvSubtle, draw.XCenter)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, c.Image()); err != nil {
		return nil, fmt.Errorf("ppl: drawing the graph of model %s: %w", g.view.name, err)
	}
	return buf.Bytes(), nil
}

// PNGSize is the size the PNG shows at, in CSS pixels: the SVG's (the PNG
// holds graphPNGScale times the pixels each way).
func (g *ModelGraph) PNGSize() (width, height int) {
	l := g.layout()
	return int(math.Round(l.w)), int(math.Round(l.h))
}

// graphCanvas draws in the layout's pixels (origin top left, y down) on a
// canvas whose origin is bottom left, s canvas units a pixel.
type graphCanvas struct {
	c    draw.Canvas
	h, s float64
}

func (d graphCanvas) pt(x, y float64) vg.Point {
	return vg.Point{X: vg.Length(x * d.s), Y: vg.Length((d.h - y) * d.s)}
}

// hexColour reads "#rrggbb".
func hexColour(h string) color.Color {
	var r, g, b uint8
	fmt.Sscanf(h, "#%02x%02x%02x", &r, &g, &b)
	return color.RGBA{R: r, G: g, B: b, A: 255}
}

func (d graphCanvas) finish(p vg.Path, fill, stroke string, width float64, dash []float64) {
	d.c.SetColor(hexColour(fill))
	d.c.Fill(p)
	d.c.SetColor(hexColour(stroke))
	d.c.SetLineWidth(vg.Length(width * d.s))
	var ds []vg.Length
	for _, v := range dash {
		ds = append(ds, vg.Length(v*d.s))
	}
	d.c.SetLineDash(ds, 0)
	d.c.Stroke(p)
	d.c.SetLineDash(nil, 0)
}

// roundRect is a rectangle with corners of radius r.
func (d graphCanvas) roundRect(x, y, w, h, r float64, fill, stroke string, width float64, dash []float64) {
	var p vg.Path
	corner := func(cx, cy, from float64) {
		for k := 0; k <= 8; k++ {
			a := from + float64(k)*math.Pi/16
			q := d.pt(cx+r*math.Cos(a), cy-r*math.Sin(a))
			if len(p) == 0 {
				p.Move(q)
			} else {
				p.Line(q)
			}
		}
	}
	corner(x+w-r, y+r, 0)             // top right
	corner(x+r, y+r, math.Pi/2)       // top left
	corner(x+r, y+h-r, math.Pi)       // bottom left
	corner(x+w-r, y+h-r, 1.5*math.Pi) // bottom right
	p.Close()
	d.finish(p, fill, stroke, width, dash)
}

func (d graphCanvas) ellipse(cx, cy, rx, ry float64, fill, stroke string, width float64) {
	var p vg.Path
	const n = 96
	for k := 0; k < n; k++ {
		a := 2 * math.Pi * float64(k) / n
		q := d.pt(cx+rx*math.Cos(a), cy+ry*math.Sin(a))
		if k == 0 {
			p.Move(q)
		} else {
			p.Line(q)
		}
	}
	p.Close()
	d.finish(p, fill, stroke, width, nil)
}

// arrow is an edge with its head at (x2, y2), as SVG's marker draws it.
func (d graphCanvas) arrow(x1, y1, x2, y2 float64) {
	const width, head = 1.2, 8.4
	dx, dy := x2-x1, y2-y1
	l := math.Hypot(dx, dy)
	if l == 0 {
		return
	}
	ux, uy := dx/l, dy/l
	bx, by := x2-head*ux, y2-head*uy // the head's base
	ink := hexColour(gvEdge)
	d.c.SetColor(ink)
	d.c.SetLineWidth(vg.Length(width * d.s))
	var line vg.Path
	line.Move(d.pt(x1, y1))
	line.Line(d.pt(bx, by))
	d.c.Stroke(line)
	var tip vg.Path
	tip.Move(d.pt(x2, y2))
	tip.Line(d.pt(bx-uy*head/2, by+ux*head/2))
	tip.Line(d.pt(bx+uy*head/2, by-ux*head/2))
	tip.Close()
	d.c.Fill(tip)
}

// text writes s with its baseline at y, as SVG's text does.
func (d graphCanvas) text(x, y float64, s string, size float64, bold bool, colour string, align draw.XAlignment) {
	f := font.Font{Typeface: "Liberation", Variant: "Sans", Size: vg.Length(size * d.s)}
	if bold {
		f.Weight = xfont.WeightBold
	}
	sty := draw.TextStyle{Color: hexColour(colour), Font: f, XAlign: align, YAlign: draw.YBottom, Handler: plot.DefaultTextHandler}
	// YBottom puts the descent below y: lift the text by it, so that y is
	// the baseline.
	face := plot.DefaultTextHandler.Cache().Lookup(f, f.Size)
	p := d.pt(x, y)
	p.Y -= face.Extents().Descent
	d.c.FillText(sty, p, s)
}
