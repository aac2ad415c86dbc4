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
	"gonum.org/v1/plot/vg/vgimg"
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
	// On a PNG canvas the dots go straight into its image; on vector
	// canvases into an image of the panel (at 144 DPI, fine enough to
	// zoom a little) that the canvas embeds.
	img, scale, direct := pixels(c)
	var w, h int
	var offX, offY float64 // pixel of the panel's top-left corner
	var clip image.Rectangle
	if direct {
		clip = pixelRect(c, img, scale)
		offX, offY = float64(c.Min.X)*scale, float64(img.Rect.Dy())-float64(c.Max.Y)*scale
		h = int(math.Ceil(float64(c.Max.Y-c.Min.Y) * scale))
	} else {
		scale = 2
		w = int(math.Ceil(float64(c.Max.X-c.Min.X) * scale))
		h = int(math.Ceil(float64(c.Max.Y-c.Min.Y) * scale))
		if w <= 0 || h <= 0 {
			return
		}
		img = image.NewRGBA(image.Rect(0, 0, w, h))
		clip = img.Rect
	}
	trX, trY := p.Transforms(&c)
	rad := math.Max(0.5, float64(cl.size)*scale/2)
	r := int(math.Ceil(rad))
	a := float64(cl.color.A) / 255
	sr, sg, sb := float64(cl.color.R)*a, float64(cl.color.G)*a, float64(cl.color.B)*a
	for i := range cl.x {
		if !finite(cl.x[i]) || !finite(cl.y[i]) {
			continue
		}
		px := int(offX + float64(trX(cl.x[i])-c.Min.X)*scale)
		py := int(offY + float64(h) - float64(trY(cl.y[i])-c.Min.Y)*scale)
		for dy := -r; dy <= r; dy++ {
			for dx := -r; dx <= r; dx++ {
				if float64(dx*dx+dy*dy) > rad*rad {
					continue
				}
				x, y := px+dx, py+dy
				if x < clip.Min.X || y < clip.Min.Y || x >= clip.Max.X || y >= clip.Max.Y {
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
	if !direct {
		c.DrawImage(c.Rectangle, img)
	}
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// xyLine makes a line through (x[i], y[i]).
func xyLine(x, y []float64, sty draw.LineStyle) polyline {
	return polyline{x: x, y: y, style: sty}
}

// polyline is a line through points, stroked in short pieces: the PNG
// rasteriser's time grows faster than linearly with a path's length, so
// a 1000-draw trace as one path takes a hundred times longer than as
// sixteen.
type polyline struct {
	x, y  []float64
	style draw.LineStyle
}

// polylinePiece is the number of points per stroked piece.
const polylinePiece = 64

func (l polyline) Plot(c draw.Canvas, p *plot.Plot) {
	if _, ok := baseCanvas(c).(*vgimg.Canvas); ok && len(l.x) >= rasterLineMin && len(l.style.Dashes) == 0 {
		l.raster(c, p)
		return
	}
	trX, trY := p.Transforms(&c)
	pts := make([]vg.Point, 0, len(l.x))
	flush := func() {
		if len(pts) > 1 {
			for start := 0; start < len(pts)-1; start += polylinePiece - 1 {
				end := min(start+polylinePiece, len(pts))
				c.StrokeLines(l.style, c.ClipLinesXY(pts[start:end])...)
			}
		}
		pts = pts[:0]
	}
	for i := range l.x {
		if !finite(l.x[i]) || !finite(l.y[i]) {
			flush()
			continue
		}
		pts = append(pts, vg.Point{X: trX(l.x[i]), Y: trY(l.y[i])})
	}
	flush()
}

func (l polyline) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for i := range l.x {
		if finite(l.x[i]) && finite(l.y[i]) {
			xmin, xmax = math.Min(xmin, l.x[i]), math.Max(xmax, l.x[i])
			ymin, ymax = math.Min(ymin, l.y[i]), math.Max(ymax, l.y[i])
		}
	}
	return
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
type blankTicks struct {
	n int // as niceTicks
}

func (b blankTicks) Ticks(min, max float64) []plot.Tick {
	ts := niceTicks{n: b.n}.Ticks(min, max)
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

// niceTicks puts about five (or n) ticks at multiples of 1, 2 or 5 × 10^k and
// labels them with as few decimals as the step needs.
type niceTicks struct {
	n int // about how many ticks; 0 means 5
	// compact writes thousands with a k (2.5k, 10k), for narrow panels.
	compact bool
}

func (t niceTicks) Ticks(min, max float64) []plot.Tick {
	if !(max > min) || !finite(min) || !finite(max) {
		return plot.DefaultTicks{}.Ticks(min, max)
	}
	n := t.n
	if n == 0 {
		n = 5
	}
	raw := (max - min) / float64(n)
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
		switch {
		case t.compact && math.Abs(v) >= 1000:
			label = strconv.FormatFloat(v/1000, 'f', -1, 64) + "k"
		case math.Abs(v) >= 1e6 || (v != 0 && math.Abs(v) < 1e-4):
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
		if v == 0 {
			v = 0 // not -0, the ceiling of a small negative
		}
		out = append(out, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', 0, 64)})
	}
	return out
}

// rasterLineMin is the number of points from which a line on a PNG
// canvas is drawn by raster (Xiaolin Wu's antialiased lines) into an
// image composited onto the panel, instead of through the vector
// rasteriser: a trace of 1000 draws then costs a millisecond, not forty.
const rasterLineMin = 300

func (l polyline) raster(c draw.Canvas, p *plot.Plot) {
	img, scale, ok := pixels(c)
	if !ok {
		return
	}
	r, g, b, a := l.style.Color.RGBA() // premultiplied, 16 bit
	if a == 0 {
		return
	}
	col := [4]float64{float64(r) / 65535, float64(g) / 65535, float64(b) / 65535, float64(a) / 65535}
	width := float64(l.style.Width) * scale
	clip := pixelRect(c, img, scale)
	trX, trY := p.Transforms(&c)
	H := float64(img.Rect.Dy())
	px := func(i int) (float64, float64) {
		return float64(trX(l.x[i])) * scale, H - float64(trY(l.y[i]))*scale
	}
	for i := 1; i < len(l.x); i++ {
		if !finite(l.x[i]) || !finite(l.y[i]) || !finite(l.x[i-1]) || !finite(l.y[i-1]) {
			continue
		}
		x0, y0 := px(i - 1)
		x1, y1 := px(i)
		wuLine(img, clip, x0, y0, x1, y1, width, col)
	}
}

// pixels returns the RGBA image behind a PNG canvas and its pixels per
// point, so dense data can be drawn straight into it.
func pixels(c draw.Canvas) (*image.RGBA, float64, bool) {
	v, ok := baseCanvas(c).(*vgimg.Canvas)
	if !ok {
		return nil, 0, false
	}
	img, ok := v.Image().(*image.RGBA)
	if !ok {
		return nil, 0, false
	}
	return img, v.DPI() / 72, true
}

// pixelRect is a canvas's rectangle in the image's pixels.
func pixelRect(c draw.Canvas, img *image.RGBA, scale float64) image.Rectangle {
	H := float64(img.Rect.Dy())
	return image.Rect(
		int(math.Floor(float64(c.Min.X)*scale)), int(math.Floor(H-float64(c.Max.Y)*scale)),
		int(math.Ceil(float64(c.Max.X)*scale)), int(math.Ceil(H-float64(c.Min.Y)*scale)),
	).Intersect(img.Rect)
}

// wuLine draws an antialiased line of about width pixels (at most 3)
// from (x0, y0) to (x1, y1) in a premultiplied colour, blending over
// what is there.
func wuLine(img *image.RGBA, clip image.Rectangle, x0, y0, x1, y1, width float64, col [4]float64) {
	steep := math.Abs(y1-y0) > math.Abs(x1-x0)
	if steep {
		x0, y0, x1, y1 = y0, x0, y1, x1
	}
	if x0 > x1 {
		x0, x1, y0, y1 = x1, x0, y1, y0
	}
	dx, dy := x1-x0, y1-y0
	grad := 1.0
	if dx > 1e-9 {
		grad = dy / dx
	}
	// A line's thickness across its direction is width; measured along
	// the minor axis it is width·sqrt(1+grad²).
	thick := math.Max(1, width*math.Sqrt(1+grad*grad))
	plot := func(x int, yc float64) {
		top := yc - thick/2
		bottom := yc + thick/2
		for y := int(math.Floor(top)); y <= int(math.Floor(bottom)); y++ {
			cover := math.Min(bottom, float64(y+1)) - math.Max(top, float64(y))
			if cover <= 0 {
				continue
			}
			cover *= math.Min(1, width)
			if steep {
				blendPixel(img, clip, y, x, cover, col)
			} else {
				blendPixel(img, clip, x, y, cover, col)
			}
		}
	}
	xs, xe := int(math.Round(x0)), int(math.Round(x1))
	if xs == xe {
		plot(xs, (y0+y1)/2)
		return
	}
	for x := xs; x <= xe; x++ {
		plot(x, y0+grad*(float64(x)-x0))
	}
}

// blendPixel composites a premultiplied colour with coverage over the
// pixel at (x, y).
func blendPixel(img *image.RGBA, clip image.Rectangle, x, y int, cover float64, col [4]float64) {
	if x < clip.Min.X || y < clip.Min.Y || x >= clip.Max.X || y >= clip.Max.Y {
		return
	}
	o := img.PixOffset(x, y)
	px := img.Pix[o : o+4 : o+4]
	a := col[3] * cover
	k := 1 - a
	px[0] = uint8(math.Min(255, col[0]*cover*255+float64(px[0])*k))
	px[1] = uint8(math.Min(255, col[1]*cover*255+float64(px[1])*k))
	px[2] = uint8(math.Min(255, col[2]*cover*255+float64(px[2])*k))
	px[3] = uint8(math.Min(255, a*255+float64(px[3])*k))
}

// baseCanvas unwraps the draw.Canvas layers gonum/plot nests around the
// backend's canvas.
func baseCanvas(c draw.Canvas) vg.Canvas {
	var v vg.Canvas = c.Canvas
	for {
		d, ok := v.(draw.Canvas)
		if !ok {
			return v
		}
		v = d.Canvas
	}
}
