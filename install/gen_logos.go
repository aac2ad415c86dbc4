//go:build ignore

// gen_logos writes logo-32x32.png and logo-64x64.png from install.Logo.
package main

import (
	"bytes"
	"fmt"
	"image/png"
	"log"
	"os"

	"github.com/gobayes/gobayes/install"
)

func main() {
	for _, size := range []int{32, 64} {
		var buf bytes.Buffer
		if err := png.Encode(&buf, install.Logo(size)); err != nil {
			log.Fatal(err)
		}
		name := fmt.Sprintf("logo-%dx%d.png", size, size)
		if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
