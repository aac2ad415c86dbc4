package lockstep

import "errors"

func runChEES(e *ensemble, ctl *control) (int, error) { return 0, errors.New("lockstep: ChEES not yet") }
func runMEADS(e *ensemble, ctl *control) (int, error) { return 0, errors.New("lockstep: MEADS not yet") }
