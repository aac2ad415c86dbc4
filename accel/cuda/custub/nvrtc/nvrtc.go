// Package nvrtc is the stand-in for gorgonia.org/cu/nvrtc (see package cu).
package nvrtc

type Program struct{ p uintptr }
type Include struct{ Source, Name string }

func CreateProgram(source, name string, headers ...Include) (Program, error) { panic("stub") }
func (program *Program) Destroy() error                                      { panic("stub") }
func (program *Program) Compile(options ...string) error                     { panic("stub") }
func (program *Program) GetPTX() (string, error)                             { panic("stub") }
func (program *Program) GetLog() (string, error)                             { panic("stub") }
