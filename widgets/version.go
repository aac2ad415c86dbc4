package widgets

import "sync"

// frontend is what the front-end said on the version comm.
var frontend versionCheck

type versionCheck struct {
	mu        sync.Mutex
	version   string
	validated bool
}

func (v *versionCheck) set(version string, ok bool) {
	v.mu.Lock()
	v.version, v.validated = version, ok
	v.mu.Unlock()
}

// FrontendVersion is the version of the widget front-end that checked in
// on the version comm ("" when none has), and whether it satisfies
// ModuleVersion. A notebook without a widget front-end (nbclient, a
// console) shows no widget.
func FrontendVersion() (version string, ok bool) {
	frontend.mu.Lock()
	defer frontend.mu.Unlock()
	return frontend.version, frontend.validated
}
