package widgets

import (
	"fmt"
	"os"

	"github.com/gobayes/gobayes/comm"
	"github.com/gobayes/gobayes/display"
)

// Interact shows the controls and an output area under them, runs f into
// the area now, and again, replacing what it showed, whenever one of the
// controls changes. f reads the controls' values:
//
//	scale := widgets.FloatSlider("prior scale", 0.1, 10, 1)
//	widgets.Interact(func() { display.Show(priorPlot(scale.Value())) }, scale)
//
// The figures f shows (images: PNG or SVG) go to the cell as ordinary
// displays below the controls, each replaced in place at every change,
// so that the notebook saves the latest figure and shows it when opened
// without a kernel; what f prints goes to the output area.
func Interact(f func(), controls ...Control) {
	for _, c := range controls {
		display.Show(c)
	}
	out := Output()
	display.Show(out)
	var shown []*display.Handle // the figures' displays, in the order f shows them
	run := func() {
		var figures []display.Bundle
		out.Capture(func() {
			display.Clear(true)
			withFiguresAside(&figures, f)
		})
		// After the capture, so that the Output widget does not take
		// them: Notebook 6 sends every message with the request's id to
		// it while its msg_id is that id.
		for i, b := range figures {
			if i < len(shown) {
				shown[i].Update(b)
				continue
			}
			h := display.NewHandle()
			h.Show(b)
			shown = append(shown, h)
		}
		for _, h := range shown[len(figures):] {
			h.Update(display.Bundle{Data: map[string]any{display.MIMEText: ""}})
		}
	}
	for _, c := range controls {
		c.onAnyChange(run)
	}
	run()
}

// withFiguresAside runs f with the images it shows kept in figures
// instead of published; everything else it publishes goes on as usual.
// Outside a kernel (no publisher) f runs as it is.
func withFiguresAside(figures *[]display.Bundle, f func()) {
	if !display.Active() {
		f()
		return
	}
	a := &figuresAside{figures: figures}
	a.next = display.SetPublisher(a)
	defer display.SetPublisher(a.next)
	f()
}

// figuresAside is the publisher withFiguresAside sets.
type figuresAside struct {
	next    display.Publisher
	figures *[]display.Bundle
}

func (a *figuresAside) Display(b display.Bundle, id string, update bool) {
	_, png := b.Data[display.MIMEPNG]
	_, svg := b.Data[display.MIMESVG]
	if (png || svg) && id == "" && !update {
		*a.figures = append(*a.figures, b)
		return
	}
	a.next.Display(b, id, update)
}

func (a *figuresAside) Clear(wait bool) { a.next.Clear(wait) }

// Stream passes text for the cell's streams on (display.ShowError writes
// to stderr through it).
func (a *figuresAside) Stream(name, text string) {
	if s, ok := a.next.(display.Streamer); ok {
		s.Stream(name, text)
		return
	}
	fmt.Fprint(os.Stderr, text)
}

// The front-end opens a comm to VersionTarget when it connects and
// checks the semver range the kernel sends against its own version; it
// answers whether they agree ({"validated": bool, "frontend_version": v}),
// which is kept for FrontendVersion.
func init() {
	comm.RegisterTarget(VersionTarget, func(c *comm.Comm, _ map[string]any) {
		c.OnMsg(func(data map[string]any) {
			v, _ := data["frontend_version"].(string)
			ok, _ := data["validated"].(bool)
			frontend.set(v, ok)
		})
		c.Send(map[string]any{"version": ModuleVersion})
	})
}
