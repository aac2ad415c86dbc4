package plotting

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"testing"
)

// The encoder's output decodes with image/png to the same pixels, for
// opaque images (written as RGB) and translucent ones (RGBA), odd sizes
// included.
func TestEncodePNGRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		w, h   int
		opaque bool
	}{{1, 1, true}, {7, 3, true}, {64, 33, true}, {5, 9, false}, {40, 17, false}} {
		img := image.NewRGBA(image.Rect(0, 0, tc.w, tc.h))
		for i := range img.Pix {
			img.Pix[i] = byte(rng.IntN(256))
		}
		if tc.opaque {
			for i := 3; i < len(img.Pix); i += 4 {
				img.Pix[i] = 255
			}
		} else {
			// Premultiplied colour: no channel above alpha.
			for i := 0; i < len(img.Pix); i += 4 {
				a := img.Pix[i+3]
				for c := 0; c < 3; c++ {
					img.Pix[i+c] = min(img.Pix[i+c], a)
				}
			}
		}
		var buf bytes.Buffer
		if err := encodePNG(&buf, img); err != nil {
			t.Fatal(err)
		}
		got, err := png.Decode(&buf)
		if err != nil {
			t.Fatalf("%dx%d: image/png cannot decode: %v", tc.w, tc.h, err)
		}
		if got.Bounds() != img.Bounds() {
			t.Fatalf("bounds %v, want %v", got.Bounds(), img.Bounds())
		}
		for y := 0; y < tc.h; y++ {
			for x := 0; x < tc.w; x++ {
				want := color.NRGBAModel.Convert(img.At(x, y))
				if g := color.NRGBAModel.Convert(got.At(x, y)); g != want {
					t.Fatalf("%dx%d opaque=%v: pixel (%d,%d) = %v, want %v", tc.w, tc.h, tc.opaque, x, y, g, want)
				}
			}
		}
	}
}
