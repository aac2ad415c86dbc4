//go:build ignore

// gen_logos writes logo-32x32.png and logo-64x64.png from install.Logo.
package main

import (
	"bytes"
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
		name := "logo-" + itoa(size) + "x" + itoa(size) + ".png"
		if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
