package install

import (
	"image"
	"image/color"
	"math"
)

// Logo draws the kernel's logo at size×size pixels: a Go-blue disc with a
// histogram of draws under the white curve of a normal density, as a
// posterior looks. It is anti-aliased by 4×4 supersampling.
func Logo(size int) *image.NRGBA {
	const ss = 4
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	blue := color.NRGBA{0x00, 0xAD, 0xD8, 0xFF}
	bar := color.NRGBA{0x9E, 0xE6, 0xF5, 0xFF}
	white := color.NRGBA{0xFF, 0xFF, 0xFF, 0xFF}
	s := float64(size)
	density := func(x float64) float64 { // x in [0,1] across the disc
		z := (x - 0.5) / 0.15
		return math.Exp(-z * z / 2)
	}
	base, height := 0.74, 0.48 // the curve's baseline and peak, as fractions of size
	for py := 0; py < size; py++ {
		for px := 0; px < size; px++ {
			var r, g, b, a float64
			for sy := 0; sy < ss; sy++ {
				for sx := 0; sx < ss; sx++ {
					x := (float64(px) + (float64(sx)+0.5)/ss) / s
					y := (float64(py) + (float64(sy)+0.5)/ss) / s
					dx, dy := x-0.5, y-0.5
					if dx*dx+dy*dy > 0.25 {
						continue // outside the disc: transparent
					}
					c := blue
					curve := base - height*density(x)
					// Bars: 7 bins of the density, under the curve.
					bin := math.Floor((x - 0.15) / 0.1)
					if bin >= 0 && bin < 7 && x-0.15-bin*0.1 > 0.012 {
						h := height * density(0.15+(bin+0.5)*0.1)
						if y <= base && y >= base-h {
							c = bar
						}
					}
					if math.Abs(y-curve) < 0.035 && x > 0.1 && x < 0.9 {
						c = white
					}
					if y > base && y < base+0.03 && x > 0.12 && x < 0.88 {
						c = white
					}
					r += float64(c.R)
					g += float64(c.G)
					b += float64(c.B)
					a += 255
				}
			}
			n := float64(ss * ss)
			if a == 0 {
				continue
			}
			cover := a / 255
			img.SetNRGBA(px, py, color.NRGBA{
				uint8(r/cover + 0.5), uint8(g/cover + 0.5), uint8(b/cover + 0.5), uint8(a/n + 0.5),
			})
		}
	}
	return img
}
