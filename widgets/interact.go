package widgets

import (
	"github.com/gobayes/gobayes/comm"
	"github.com/gobayes/gobayes/display"
)

// Interact shows the controls and an output area under them, runs f into
// the area now, and again, replacing what it showed, whenever one of the
// controls changes. f reads the controls' values:
//
//	scale := widgets.FloatSlider("prior scale", 0.1, 10, 1)
//	widgets.Interact(func() { display.Show(priorPlot(scale.Value())) }, scale)
func Interact(f func(), controls ...Control) {
	for _, c := range controls {
		display.Show(c)
	}
	out := Output()
	display.Show(out)
	run := func() {
		out.Capture(func() {
			display.Clear(true)
			f()
		})
	}
	for _, c := range controls {
		c.onAnyChange(run)
	}
	run()
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
