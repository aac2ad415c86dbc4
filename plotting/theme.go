package plotting

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The Okabe–Ito palette (Okabe & Ito, "Color Universal Design", 2008),
// distinguishable with the common colour-vision deficiencies.
var (
	oiBlue       = color.RGBA{0x00, 0x72, 0xB2, 0xFF}
	oiOrange     = color.RGBA{0xE6, 0x9F, 0x00, 0xFF}
	oiGreen      = color.RGBA{0x00, 0x9E, 0x73, 0xFF}
	oiPurple     = color.RGBA{0xCC, 0x79, 0xA7, 0xFF}
	oiSky        = color.RGBA{0x56, 0xB4, 0xE9, 0xFF}
	oiVermillion = color.RGBA{0xD5, 0x5E, 0x00, 0xFF}
	oiYellow     = color.RGBA{0xF0, 0xE4, 0x42, 0xFF}
	oiBlack      = color.RGBA{0x00, 0x00, 0x00, 0xFF}
)

// chainPalette gives each chain its colour, in this order.
var chainPalette = []color.RGBA{oiBlue, oiOrange, oiGreen, oiPurple, oiSky, oiVermillion, oiYellow, oiBlack}

// chainColor is the colour of chain index c.
func chainColor(c int) color.RGBA { return chainPalette[c%len(chainPalette)] }

// Roles of colours that are not chains.
var (
	drawColor      = oiBlue       // pooled draws, densities of one sample
	divergentColor = oiVermillion // divergent transitions in a pair plot
	tickColor      = oiBlack      // divergence ticks under a trace
	refColor       = oiBlack      // reference values
	ropeColor      = withAlpha(oiGreen, 0x50)
	hdiColor       = withAlpha(oiBlue, 0x40)
	gridColor      = color.Gray{Y: 0xE4}
	noteColor      = color.Gray{Y: 0x55}
)

// withAlpha returns c with alpha a (0–255), premultiplied as color.RGBA wants.
func withAlpha(c color.RGBA, a uint8) color.RGBA {
	f := float64(a) / 255
	return color.RGBA{uint8(float64(c.R) * f), uint8(float64(c.G) * f), uint8(float64(c.B) * f), a}
}

// style is the text sizes of a figure, smaller for denser grids.
type style struct {
	title, label, tick, legend, header vg.Length
	line                               vg.Length
}

// newStyle chooses text sizes from the size of one panel in pixels:
// width matters more than height, since a wide, short panel (a trace)
// still has room for its labels.
func newStyle(panelWidth, panelHeight int) style {
	s := style{title: 11, label: 10, tick: 9, legend: 10, header: 13, line: 1.2}
	d := min(panelWidth, panelHeight*8/5)
	switch {
	case d < 110:
		s.title, s.label, s.tick, s.line = 8, 7.5, 6.5, 0.8
	case d < 150:
		s.title, s.label, s.tick, s.line = 9, 8.5, 7.5, 1
	case d < 200:
		s.title, s.label, s.tick = 10, 9, 8
	}
	return s
}

// scaled is s with every text size multiplied by k.
func (s style) scaled(k float64) style {
	if k == 1 || k <= 0 {
		return s
	}
	m := vg.Length(k)
	s.title, s.label, s.tick, s.legend, s.header = s.title*m, s.label*m, s.tick*m, s.legend*m, s.header*m
	return s
}

func sans(size vg.Length) font.Font {
	return font.Font{Typeface: "Liberation", Variant: "Sans", Size: size}
}

// newPlot returns an empty panel in the figure's style, with a light grid.
func (s style) newPlot(title, xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = sans(s.title)
	p.Title.Padding = 3
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = sans(s.label)
		a.Tick.Label.Font = sans(s.tick)
		a.Padding = 2
		a.LineStyle.Width = 0.6
		a.Tick.LineStyle.Width = 0.6
		a.Tick.Length = 3
		a.Label.Padding = 2
		a.Tick.Marker = niceTicks{}
	}
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	g := plotter.NewGrid()
	g.Vertical = draw.LineStyle{Color: gridColor, Width: 0.5}
	g.Horizontal = draw.LineStyle{Color: gridColor, Width: 0.5}
	p.Add(g)
	return p
}

// lineStyle is a solid line of colour c in the figure's width.
func (s style) lineStyle(c color.Color) draw.LineStyle {
	return draw.LineStyle{Color: c, Width: s.line}
}

// color8 is an opaque grey of level y.
func color8(y uint8) color.Gray { return color.Gray{Y: y} }

// withStraightAlpha is c with opacity a, not premultiplied (for cloud).
func withStraightAlpha(c color.RGBA, a uint8) color.RGBA {
	c.A = a
	return c
}

// colorLike is any colour.
type colorLike = color.Color
