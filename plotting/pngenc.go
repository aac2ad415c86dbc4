package plotting

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"io"
)

// encodePNG writes img as a PNG. image/png tries five row filters on every
// row and keeps the best, which is half the time of rendering a dense
// figure; plots compress about as well with the Up filter on every row
// (flat backgrounds, mostly vertical structure in the rows of a canvas), so
// this writes that, as 8-bit RGB when the image is opaque (figures always
// are) and RGBA otherwise, deflated at best speed.
func encodePNG(w io.Writer, img *image.RGBA) error {
	b := img.Bounds()
	width, height := b.Dx(), b.Dy()
	opaque := img.Opaque()
	bpp := 4
	colour := byte(6) // truecolour with alpha
	if opaque {
		bpp, colour = 3, 2 // truecolour
	}
	bw := bufio.NewWriter(w)
	bw.WriteString("\x89PNG\r\n\x1a\n")
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(width))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(height))
	ihdr[8], ihdr[9] = 8, colour // bit depth, colour type; compression, filter, interlace 0
	writeChunk(bw, "IHDR", ihdr[:])

	var data bytes.Buffer
	zw, err := zlib.NewWriterLevel(&data, zlib.BestSpeed)
	if err != nil {
		return err
	}
	stride := width * bpp
	prev := make([]byte, stride)
	cur := make([]byte, stride)
	row := make([]byte, 1+stride)
	row[0] = 2 // Up: each byte minus the byte above it
	for y := b.Min.Y; y < b.Max.Y; y++ {
		pix := img.Pix[img.PixOffset(b.Min.X, y):]
		if opaque {
			for x, j := 0, 0; x < width; x, j = x+1, j+3 {
				cur[j], cur[j+1], cur[j+2] = pix[4*x], pix[4*x+1], pix[4*x+2]
			}
		} else {
			// PNG stores straight alpha; image.RGBA is premultiplied.
			for x, j := 0, 0; x < width; x, j = x+1, j+4 {
				c := color.NRGBAModel.Convert(color.RGBA{pix[j], pix[j+1], pix[j+2], pix[j+3]}).(color.NRGBA)
				cur[j], cur[j+1], cur[j+2], cur[j+3] = c.R, c.G, c.B, c.A
			}
		}
		for i := range cur {
			row[1+i] = cur[i] - prev[i]
		}
		if _, err := zw.Write(row); err != nil {
			return err
		}
		prev, cur = cur, prev
	}
	if err := zw.Close(); err != nil {
		return err
	}
	writeChunk(bw, "IDAT", data.Bytes())
	writeChunk(bw, "IEND", nil)
	return bw.Flush()
}

// encodeFigurePNG writes a canvas image: through encodePNG when it is RGBA
// (vgimg's canvases are), else through image/png at best speed.
func encodeFigurePNG(w io.Writer, img image.Image) error {
	if rgba, ok := img.(*image.RGBA); ok {
		return encodePNG(w, rgba)
	}
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	return enc.Encode(w, img)
}

func writeChunk(w *bufio.Writer, kind string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	w.Write(n[:])
	crc := crc32.NewIEEE()
	io.WriteString(crc, kind)
	crc.Write(data)
	w.WriteString(kind)
	w.Write(data)
	binary.BigEndian.PutUint32(n[:], crc.Sum32())
	w.Write(n[:])
}
