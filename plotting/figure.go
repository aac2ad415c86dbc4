package plotting

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/gobayes/gobayes/display"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Figure is one picture made of panels in a grid, with a title, a legend
// above the panels and a note below them. It renders itself as PNG or SVG
// (the methods a notebook kernel looks for) and saves to a file. A Figure
// made from bad input carries the error instead (see the package
// documentation).
type Figure struct {
	kind       string
	title      string
	note       string
	legend     []LegendEntry
	rows, cols int
	colWeights []float64 // relative column widths; nil means equal
	cells      []*panel  // row-major; nil cells are left empty
	width      int
	height     int
	dpi        int
	fontScale  float64
	format     string
	sty        style
	err        error
}

// Panel describes one panel of a figure: where it is, what it is called
// and what it draws.
type Panel struct {
	Row, Col       int
	Title          string
	XLabel, YLabel string
	Elements       []Element
}

// Element is one thing a panel draws. Kind is "line", "points", "bars",
// "band", "rule", "ticks", "interval" or "text"; Label says what it shows
// ("chain 2", "divergent", "HDI 94%"); N counts its data points (draws,
// grid points, bars, markers).
type Element struct {
	Kind  string
	Label string
	N     int
}

// Count returns how many elements of a kind (and, if label is not "",
// with that label) the panel draws.
func (p Panel) Count(kind, label string) int {
	n := 0
	for _, e := range p.Elements {
		if e.Kind == kind && (label == "" || e.Label == label) {
			n++
		}
	}
	return n
}

// Points returns the total N of the elements of a kind and label ("" for
// any label).
func (p Panel) Points(kind, label string) int {
	n := 0
	for _, e := range p.Elements {
		if e.Kind == kind && (label == "" || e.Label == label) {
			n += e.N
		}
	}
	return n
}

// LegendEntry is one entry of a figure's legend: a label and the colour
// and kind ("line", "points", "band", "ticks") of its swatch.
type LegendEntry struct {
	Label string
	Kind  string
	Color color.Color
}

// panel is a panel under construction: the plot and its description.
type panel struct {
	p    *plot.Plot
	desc Panel
}

// add draws plotters on the panel and records them as one element.
func (pn *panel) add(kind, label string, n int, ps ...plot.Plotter) {
	pn.p.Add(ps...)
	pn.desc.Elements = append(pn.desc.Elements, Element{Kind: kind, Label: label, N: n})
}

// newFigure makes an empty figure of rows×cols panels; width and height
// are the plot's own size in CSS pixels, scaled by the notebook's
// Defaults.Width and replaced by the settings' size.
func newFigure(kind string, set Settings, rows, cols, width, height int) *Figure {
	f := &Figure{kind: kind, rows: rows, cols: cols, dpi: defaultDPI, fontScale: 1, format: "png"}
	if set.DPI > 0 {
		f.dpi = set.DPI
	}
	if set.FontScale > 0 {
		f.fontScale = set.FontScale
	}
	if set.Format != "" {
		f.format = strings.ToLower(set.Format)
	}
	f.cells = make([]*panel, rows*cols)
	f.sizeFrom(set, width, height)
	return f
}

// sizeFrom sets the figure's size: the settings' size if given, else the
// plot's own scaled by the notebook's Defaults.Width; text sizes follow.
func (f *Figure) sizeFrom(set Settings, width, height int) {
	if set.Width > 0 {
		f.width, f.height = set.Width, set.Height
	} else {
		s := set.sizeScale
		if s == 0 {
			s = 1
		}
		f.width, f.height = int(math.Round(float64(width)*s)), int(math.Round(float64(height)*s))
	}
	f.sty = newStyle(f.width/f.cols, (f.height-70)/f.rows).scaled(f.fontScale)
}

// errorFigure is the figure of a call that could not be drawn.
func errorFigure(kind string, err error) *Figure {
	return &Figure{kind: kind, err: err, format: "png"}
}

// panel creates the panel at row r, column c.
func (f *Figure) panel(r, c int, title, xlabel, ylabel string) *panel {
	pn := &panel{
		p:    f.sty.newPlot(title, xlabel, ylabel),
		desc: Panel{Row: r, Col: c, Title: title, XLabel: xlabel, YLabel: ylabel},
	}
	f.cells[r*f.cols+c] = pn
	return pn
}

// addLegend adds an entry to the figure's legend once.
func (f *Figure) addLegend(label, kind string, c color.Color) {
	for _, e := range f.legend {
		if e.Label == label {
			return
		}
	}
	f.legend = append(f.legend, LegendEntry{Label: label, Kind: kind, Color: c})
}

// Err returns the error of a figure made from bad input, or nil.
func (f *Figure) Err() error { return f.err }

// Title returns the figure's title.
func (f *Figure) Title() string { return f.title }

// Note returns the figure's note (what it left out), or "".
func (f *Figure) Note() string { return f.note }

// Legend returns the figure's legend entries.
func (f *Figure) Legend() []LegendEntry { return append([]LegendEntry(nil), f.legend...) }

// Size returns the figure's size in CSS pixels (the size a notebook
// shows) and the pixel density of its PNG: the PNG holds width·dpi/96 ×
// height·dpi/96 pixels.
func (f *Figure) Size() (width, height, dpi int) { return f.width, f.height, f.dpi }

// Grid returns the number of rows and columns of panels.
func (f *Figure) Grid() (rows, cols int) { return f.rows, f.cols }

// Panels describes the figure's panels, row by row.
func (f *Figure) Panels() []Panel {
	var out []Panel
	for _, c := range f.cells {
		if c != nil {
			out = append(out, c.desc)
		}
	}
	return out
}

// String is the figure's text form: what it shows, or its error.
func (f *Figure) String() string {
	if f.err != nil {
		return f.err.Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s figure: %s (%d×%d panels, %d×%d px)", f.kind, f.title, f.rows, f.cols, f.width, f.height)
	if f.note != "" {
		fmt.Fprintf(&b, "; %s", f.note)
	}
	return b.String()
}

// Bundle is the figure's MIME bundle for a notebook (display.Bundler):
// the image in the figure's format and the text form. A figure made from
// bad input gives only the text, which is the error.
func (f *Figure) Bundle() display.Bundle {
	b := display.Bundle{Data: map[string]any{display.MIMEText: f.String()}, Metadata: map[string]any{}}
	if f.err != nil {
		return b
	}
	if f.format == "svg" {
		s, err := f.SVG()
		if err != nil {
			b.Data[display.MIMEText] = err.Error()
			return b
		}
		b.Data[display.MIMESVG] = s
		return b
	}
	png, err := f.PNG()
	if err != nil {
		b.Data[display.MIMEText] = err.Error()
		return b
	}
	b.Data[display.MIMEPNG] = base64.StdEncoding.EncodeToString(png)
	// The PNG holds dpi/96 pixels per CSS pixel; the metadata has the
	// notebook (Notebook 6, JupyterLab, VS Code) show it at the figure's
	// size, so a 192-DPI figure is sharp, not twice as large.
	b.Metadata[display.MIMEPNG] = map[string]any{"width": f.width, "height": f.height}
	return b
}

// PNG renders the figure as PNG.
func (f *Figure) PNG() ([]byte, error) { return f.Render("png") }

// SVG renders the figure as an SVG document.
func (f *Figure) SVG() (string, error) {
	b, err := f.Render("svg")
	return string(b), err
}

// Save writes the figure to a file whose extension (.png, .svg, .pdf)
// chooses the format.
func (f *Figure) Save(path string) error {
	if f.err != nil {
		return f.err
	}
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	if ext == "" {
		return fmt.Errorf("plotting: cannot save %q: the name has no extension; end it in .png, .svg or .pdf", path)
	}
	b, err := f.Render(ext)
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("plotting: saving the figure: %w", err)
	}
	return nil
}

// Render draws the figure in a format: "png", "svg" or "pdf".
func (f *Figure) Render(format string) ([]byte, error) {
	if f.err != nil {
		return nil, f.err
	}
	// A CSS pixel is 1/96 inch; the PNG canvas turns inches into
	// pixels at the figure's DPI, SVG and PDF keep the inches.
	dpi := f.dpi
	w := vg.Length(f.width) / 96 * vg.Inch
	h := vg.Length(f.height) / 96 * vg.Inch
	var buf bytes.Buffer
	switch strings.ToLower(format) {
	case "png":
		c := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi))
		f.draw(draw.New(c))
		if err := encodeFigurePNG(&buf, c.Image()); err != nil {
			return nil, fmt.Errorf("plotting: encoding PNG: %w", err)
		}
	case "svg":
		c := vgsvg.New(w, h)
		f.draw(draw.New(c))
		if _, err := c.WriteTo(&buf); err != nil {
			return nil, fmt.Errorf("plotting: encoding SVG: %w", err)
		}
	case "pdf":
		c := vgpdf.New(w, h)
		f.draw(draw.New(c))
		if _, err := c.WriteTo(&buf); err != nil {
			return nil, fmt.Errorf("plotting: encoding PDF: %w", err)
		}
	default:
		return nil, fmt.Errorf("plotting: cannot render format %q; use png, svg or pdf", format)
	}
	return buf.Bytes(), nil
}

// draw lays the figure out on a canvas: title and legend on top, the
// panels in a grid, the note at the bottom.
func (f *Figure) draw(c draw.Canvas) {
	if _, ok := c.Canvas.(*vgimg.Canvas); !ok { // PNG canvases start white
		c.FillPolygon(color.White, []vg.Point{c.Min, {X: c.Max.X, Y: c.Min.Y}, c.Max, {X: c.Min.X, Y: c.Max.Y}})
	}
	const pad = vg.Length(5)
	top := c.Max.Y - pad
	if f.title != "" {
		sty := textStyle(sans(f.sty.header), color.Black, draw.XCenter, draw.YTop)
		c.FillText(sty, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: top}, f.title)
		top -= sty.Height(f.title) + pad
	}
	if len(f.legend) > 0 {
		top -= f.drawLegend(c, top) + pad
	}
	bottom := c.Min.Y
	if f.note != "" {
		sty := textStyle(sans(f.sty.tick), noteColor, draw.XLeft, draw.YBottom)
		c.FillText(sty, vg.Point{X: c.Min.X + pad, Y: c.Min.Y + 3}, f.note)
		bottom += sty.Height(f.note) + 4
	}
	body := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
		Min: vg.Point{X: c.Min.X, Y: bottom},
		Max: vg.Point{X: c.Max.X, Y: top},
	}}
	tiles := draw.Tiles{Rows: f.rows, Cols: f.cols, PadX: 8, PadY: 6, PadLeft: 4, PadRight: 10, PadBottom: 2}
	if f.colWeights != nil {
		f.drawWeighted(body, tiles)
		return
	}
	grid := make([][]*plot.Plot, f.rows)
	for r := range grid {
		grid[r] = make([]*plot.Plot, f.cols)
		for k := range grid[r] {
			if pn := f.cells[r*f.cols+k]; pn != nil {
				grid[r][k] = pn.p
			}
		}
	}
	canvases := plot.Align(grid, tiles, body)
	for r := range grid {
		for k, p := range grid[r] {
			if p != nil {
				p.Draw(canvases[r][k])
			}
		}
	}
}

// drawWeighted lays out columns of unequal width (a trace beside its
// densities, a forest with its R-hat and ESS columns), aligning the
// panels within each column; rows line up because every column has the
// same tile heights.
func (f *Figure) drawWeighted(body draw.Canvas, t draw.Tiles) {
	total := 0.0
	for _, w := range f.colWeights {
		total += w
	}
	avail := body.Max.X - body.Min.X - t.PadLeft - t.PadRight - vg.Length(f.cols-1)*t.PadX
	x := body.Min.X + t.PadLeft
	for k := 0; k < f.cols; k++ {
		w := avail * vg.Length(f.colWeights[k]/total)
		column := draw.Canvas{Canvas: body.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: x, Y: body.Min.Y},
			Max: vg.Point{X: x + w, Y: body.Max.Y},
		}}
		grid := make([][]*plot.Plot, f.rows)
		for r := range grid {
			grid[r] = []*plot.Plot{nil}
			if pn := f.cells[r*f.cols+k]; pn != nil {
				grid[r][0] = pn.p
			}
		}
		ct := draw.Tiles{Rows: f.rows, Cols: 1, PadY: t.PadY, PadTop: t.PadTop, PadBottom: t.PadBottom}
		canvases := plot.Align(grid, ct, column)
		for r := range grid {
			if grid[r][0] != nil {
				grid[r][0].Draw(canvases[r][0])
			}
		}
		x += w + t.PadX
	}
}

// drawLegend draws the legend entries in a centred row below y (wrapping
// to more rows if needed) and returns the height used.
func (f *Figure) drawLegend(c draw.Canvas, y vg.Length) vg.Length {
	sty := textStyle(sans(f.sty.legend), color.Black, draw.XLeft, draw.YCenter)
	const swatch, gap, space = vg.Length(16), vg.Length(4), vg.Length(14)
	rowH := sty.Height("Mg") + 2
	widths := make([]vg.Length, len(f.legend))
	for i, e := range f.legend {
		widths[i] = swatch + gap + sty.Width(e.Label)
	}
	avail := c.Max.X - c.Min.X - 20
	var rows [][]int
	var cur []int
	var curW vg.Length
	for i, w := range widths {
		if len(cur) > 0 && curW+space+w > avail {
			rows = append(rows, cur)
			cur, curW = nil, 0
		}
		if len(cur) > 0 {
			curW += space
		}
		cur = append(cur, i)
		curW += w
	}
	rows = append(rows, cur)
	for r, row := range rows {
		var rowW vg.Length
		for j, i := range row {
			if j > 0 {
				rowW += space
			}
			rowW += widths[i]
		}
		x := (c.Min.X+c.Max.X)/2 - rowW/2
		yc := y - vg.Length(r)*rowH - rowH/2
		for _, i := range row {
			e := f.legend[i]
			drawSwatch(c, e, x, yc, swatch)
			c.FillText(sty, vg.Point{X: x + swatch + gap, Y: yc}, e.Label)
			x += widths[i] + space
		}
	}
	return vg.Length(len(rows)) * rowH
}

func drawSwatch(c draw.Canvas, e LegendEntry, x, y, w vg.Length) {
	switch e.Kind {
	case "points":
		c.DrawGlyphNoClip(draw.GlyphStyle{Color: e.Color, Radius: 3, Shape: draw.CircleGlyph{}}, vg.Point{X: x + w/2, Y: y})
	case "band":
		c.FillPolygon(e.Color, []vg.Point{{X: x, Y: y - 4}, {X: x + w, Y: y - 4}, {X: x + w, Y: y + 4}, {X: x, Y: y + 4}})
	case "ticks":
		c.StrokeLine2(draw.LineStyle{Color: e.Color, Width: 1.2}, x+w/2, y-5, x+w/2, y+5)
	case "dashed":
		c.StrokeLine2(draw.LineStyle{Color: e.Color, Width: 1.5, Dashes: []vg.Length{3, 2}}, x, y, x+w, y)
	default:
		c.StrokeLine2(draw.LineStyle{Color: e.Color, Width: 2}, x, y, x+w, y)
	}
}

func textStyle(fnt font.Font, clr color.Color, xa draw.XAlignment, ya draw.YAlignment) draw.TextStyle {
	return draw.TextStyle{
		Color:   clr,
		Font:    fnt,
		XAlign:  xa,
		YAlign:  ya,
		Handler: plot.DefaultTextHandler,
	}
}
