package plotting

import (
	"image"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The small plotters below draw what gonum/plot's own do not: ticks along
// the bottom edge, rules and bands spanning a panel, segment sets, and a
// rasterised point cloud that keeps thousands of draws fast in both PNG
// and SVG.

// rug draws short vertical ticks at x values along the bottom of a panel.
type rug struct {
	xs    []float64
	color color.Color
	size  vg.Length
}

func (r rug) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	sty := draw.LineStyle{Color: r.color, Width: 1}
	for _, x := range r.xs {
		px := trX(x)
		if px < c.Min.X || px > c.Max.X {
			continue
		}
		c.StrokeLine2(sty, px, c.Min.Y, px, c.Min.Y+r.size)
	}
}

// vrule is a vertical line across the panel at x.
type vrule struct {
	x     float64
	style draw.LineStyle
}

func (r vrule) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	px := trX(r.x)
	if px >= c.Min.X && px <= c.Max.X {
		c.StrokeLine2(r.style, px, c.Min.Y, px, c.Max.Y)
	}
}

func (r vrule) DataRange() (xmin, xmax, ymin, ymax float64) {
	return r.x, r.x, math.Inf(1), math.Inf(-1)
}

// hrule is a horizontal line across the panel at y.
type hrule struct {
	y     float64
	style draw.LineStyle
}

func (r hrule) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	py := trY(r.y)
	if py >= c.Min.Y && py <= c.Max.Y {
		c.StrokeLine2(r.style, c.Min.X, py, c.Max.X, py)
	}
}

func (r hrule) DataRange() (xmin, xmax, ymin, ymax float64) {
	return math.Inf(1), math.Inf(-1), r.y, r.y
}

// vband shades the full height of a panel between x0 and x1.
type vband struct {
	x0, x1 float64
	color  color.Color
}

func (b vband) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	x0, x1 := trX(b.x0), trX(b.x1)
	x0 = max(x0, c.Min.X)
	x1 = min(x1, c.Max.X)
	if x1 <= x0 {
		return
	}
	c.FillPolygon(b.color, []vg.Point{{X: x0, Y: c.Min.Y}, {X: x1, Y: c.Min.Y}, {X: x1, Y: c.Max.Y}, {X: x0, Y: c.Max.Y}})
}

func (b vband) DataRange() (xmin, xmax, ymin, ymax float64) {
	return b.x0, b.x1, math.Inf(1), math.Inf(-1)
}

// hband shades the full width of a panel between y0 and y1.
type hband struct {
	y0, y1 float64
	color  color.Color
}

func (b hband) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	y0, y1 := max(trY(b.y0), c.Min.Y), min(trY(b.y1), c.Max.Y)
	if y1 <= y0 {
		return
	}
	c.FillPolygon(b.color, []vg.Point{{X: c.Min.X, Y: y0}, {X: c.Max.X, Y: y0}, {X: c.Max.X, Y: y1}, {X: c.Min.X, Y: y1}})
}

func (b hband) DataRange() (xmin, xmax, ymin, ymax float64) {
	return math.Inf(1), math.Inf(-1), b.y0, b.y1
}

// area fills the region under a curve between x0 and x1 (the HDI under
// a density).
type area struct {
	x, y   []float64
	x0, x1 float64
	color  color.Color
}

func (a area) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	pts := []vg.Point{{X: trX(a.x0), Y: trY(0)}}
	pts = append(pts, vg.Point{X: trX(a.x0), Y: trY(interp(a.x, a.y, a.x0))})
	for i, x := range a.x {
		if x > a.x0 && x < a.x1 {
			pts = append(pts, vg.Point{X: trX(x), Y: trY(a.y[i])})
		}
	}
	pts = append(pts, vg.Point{X: trX(a.x1), Y: trY(interp(a.x, a.y, a.x1))}, vg.Point{X: trX(a.x1), Y: trY(0)})
	c.FillPolygon(a.color, c.ClipPolygonXY(pts))
}

// interp is the linear interpolation of y(x) at t, x increasing.
func interp(x, y []float64, t float64) float64 {
	if len(x) == 0 {
		return 0
	}
	if t <= x[0] {
		return y[0]
	}
	for i := 1; i < len(x); i++ {
		if t <= x[i] {
			f := (t - x[i-1]) / (x[i] - x[i-1])
			return y[i-1] + f*(y[i]-y[i-1])
		}
	}
	return y[len(y)-1]
}

// segments draws straight segments from (x0, y0) to (x1, y1), one style.
type segments struct {
	x0, y0, x1, y1 []float64
	style          draw.LineStyle
}

func (s segments) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for i := range s.x0 {
		c.StrokeLines(s.style, c.ClipLinesXY([]vg.Point{{X: trX(s.x0[i]), Y: trY(s.y0[i])}, {X: trX(s.x1[i]), Y: trY(s.y1[i])}})...)
	}
}

func (s segments) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for i := range s.x0 {
		xmin = math.Min(xmin, math.Min(s.x0[i], s.x1[i]))
		xmax = math.Max(xmax, math.Max(s.x0[i], s.x1[i]))
		ymin = math.Min(ymin, math.Min(s.y0[i], s.y1[i]))
		ymax = math.Max(ymax, math.Max(s.y0[i], s.y1[i]))
	}
	return
}

// cloud draws many points as a raster image at the canvas's resolution:
// one image per panel instead of thousands of vector glyphs.
type cloud struct {
	x, y  []float64
	color color.RGBA // straight (not premultiplied) colour; A is the opacity
	size  vg.Length  // dot diameter
}

func (cl cloud) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for i := range cl.x {
		if finite(cl.x[i]) && finite(cl.y[i]) {
			xmin, xmax = math.Min(xmin, cl.x[i]), math.Max(xmax, cl.x[i])
			ymin, ymax = math.Min(ymin, cl.y[i]), math.Max(ymax, cl.y[i])
		}
	}
	return
}

func (cl cloud) Plot(c draw.Canvas, p *plot.Plot) {
	dpi := 144.0
	if d, ok := c.Canvas.(interface{ DPI() float64 }); ok {
		dpi = d.DPI()
	}
	scale := dpi / 72 // pixels per point
	w := int(math.Ceil(float64(c.Max.X-c.Min.X) * scale))
	h := int(math.Ceil(float64(c.Max.Y-c.Min.Y) * scale))
	if w <= 0 || h <= 0 {
		return
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	trX, trY := p.Transforms(&c)
	r := int(math.Max(1, math.Round(float64(cl.size)*scale/2)))
	a := float64(cl.color.A) / 255
	sr, sg, sb := float64(cl.color.R)*a, float64(cl.color.G)*a, float64(cl.color.B)*a
	for i := range cl.x {
		if !finite(cl.x[i]) || !finite(cl.y[i]) {
			continue
		}
		px := int(float64(trX(cl.x[i])-c.Min.X) * scale)
		py := h - 1 - int(float64(trY(cl.y[i])-c.Min.Y)*scale)
		for dy := -r + 1; dy < r; dy++ {
			for dx := -r + 1; dx < r; dx++ {
				if dx*dx+dy*dy > r*r {
					continue
				}
				x, y := px+dx, py+dy
				if x < 0 || y < 0 || x >= w || y >= h {
					continue
				}
				o := img.PixOffset(x, y)
				px := img.Pix[o : o+4 : o+4]
				k := 1 - a
				px[0] = uint8(sr + float64(px[0])*k)
				px[1] = uint8(sg + float64(px[1])*k)
				px[2] = uint8(sb + float64(px[2])*k)
				px[3] = uint8(255*a + float64(px[3])*k)
			}
		}
	}
	c.DrawImage(c.Rectangle, img)
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// xyLine makes a line through (x[i], y[i]).
func xyLine(x, y []float64, sty draw.LineStyle) *plotter.Line {
	xys := make(plotter.XYs, len(x))
	for i := range x {
		xys[i].X, xys[i].Y = x[i], y[i]
	}
	return &plotter.Line{XYs: xys, LineStyle: sty}
}

// points makes glyphs at (x[i], y[i]).
func points(x, y []float64, g draw.GlyphStyle) *plotter.Scatter {
	xys := make(plotter.XYs, len(x))
	for i := range x {
		xys[i].X, xys[i].Y = x[i], y[i]
	}
	return &plotter.Scatter{XYs: xys, GlyphStyle: g}
}

// blankTicks keeps the default tick positions (and so the grid lines)
// but drops the labels, for inner panels of a matrix.
type blankTicks struct{}

func (blankTicks) Ticks(min, max float64) []plot.Tick {
	ts := niceTicks{}.Ticks(min, max)
	for i := range ts {
		ts[i].Label = ""
	}
	return ts
}

// num formats a number for titles: three significant digits, no
// trailing zeros, exponent form only for very large or small values.
func num(x float64) string {
	switch {
	case math.IsNaN(x):
		return "–"
	case x == 0:
		return "0"
	case math.Abs(x) >= 1e6 || math.Abs(x) < 1e-3:
		return strconv.FormatFloat(x, 'e', 2, 64)
	case math.Abs(x) >= 1000:
		return strconv.FormatFloat(math.Round(x), 'f', -1, 64)
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 3, 64), 64)
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// gridShape returns rows and columns for n panels at most cols wide.
func gridShape(n, cols int) (int, int) {
	if n < cols {
		cols = n
	}
	if cols < 1 {
		cols = 1
	}
	return (n + cols - 1) / cols, cols
}

// niceTicks puts about five ticks at multiples of 1, 2 or 5 × 10^k and
// labels them with as few decimals as the step needs.
type niceTicks struct{}

func (niceTicks) Ticks(min, max float64) []plot.Tick {
	if !(max > min) || !finite(min) || !finite(max) {
		return plot.DefaultTicks{}.Ticks(min, max)
	}
	raw := (max - min) / 5
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	dec := 0
	if step < 1 {
		dec = int(math.Ceil(-math.Log10(step) - 1e-9))
		if math.Abs(step*math.Pow(10, float64(dec))-math.Round(step*math.Pow(10, float64(dec)))) > 1e-9 {
			dec++
		}
	} else if step != math.Trunc(step) {
		dec = 1
	}
	var out []plot.Tick
	for v := math.Ceil(min/step) * step; v <= max+step*1e-9; v += step {
		if math.Abs(v) < step*1e-9 {
			v = 0
		}
		label := strconv.FormatFloat(v, 'f', dec, 64)
		if math.Abs(v) >= 1e6 || (v != 0 && math.Abs(v) < 1e-4) {
			label = strconv.FormatFloat(v, 'g', 3, 64)
		}
		out = append(out, plot.Tick{Value: v, Label: label})
	}
	return out
}

func (b hdiBar) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	y := c.Min.Y + 3
	c.StrokeLine2(draw.LineStyle{Color: b.color, Width: 4}, trX(b.lo), y, trX(b.hi), y)
}

// integerTicks are niceTicks with a step of at least 1, for counts.
type integerTicks struct{}

func (integerTicks) Ticks(min, max float64) []plot.Tick {
	step := 1.0
	for _, m := range []float64{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000} {
		step = m
		if (max-min)/m <= 8 {
			break
		}
	}
	var out []plot.Tick
	for v := math.Ceil(min/step) * step; v <= max; v += step {
		out = append(out, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', 0, 64)})
	}
	return out
}
