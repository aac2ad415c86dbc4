//go:build tools

// Package deps pins the project's required modules in go.mod before every
// package that uses them exists. It is never built (the tools tag is never set).
package deps

import (
	_ "github.com/go-zeromq/zmq4"
	_ "github.com/traefik/yaegi/interp"
	_ "gonum.org/v1/gonum/mat"
	_ "gonum.org/v1/plot"
	_ "gorgonia.org/cu"
)
