package ogimage

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"io"
	"sync"
	"sync/atomic"

	"github.com/klauspost/compress/flate"
)

// encodePNG writes img as an 8-bit RGB PNG (RGBA when some pixel is not
// opaque). It does what image/png does at BestSpeed minus the cost that
// dominates there, trying all five filters on every row (see filterRow).
// Row bands are filtered and deflated in parallel (see pngBands).
func encodePNG(img *image.RGBA) *PNGFile { return encodeBands(img, 3) }

// pngBands encodes an image band by band, in any order and on any
// goroutine, so that a band can be encoded as soon as it is drawn. Each
// band is deflated on its own, ending on a sync flush so that the bands
// join into one zlib stream, as pigz does; their Adler-32 sums are
// combined. A band's first row is filtered Sub, which reads no other band.
// The image is taken for opaque, and checked as it is filtered: should a
// pixel turn out not to be, finish encodes the whole image again as RGBA
// (Plaza's images never need it).
type pngBands struct {
	img   *image.RGBA
	bpp   int
	clear atomic.Bool
	parts [bands]struct {
		sum   uint32 // Adler-32 of the band's filtered bytes
		bytes int64
	}
	f *PNGFile
}

func newPNGBands(img *image.RGBA, bpp int) *pngBands {
	e := &pngBands{img: img, bpp: bpp, f: &PNGFile{}}
	for k := range e.f.bands {
		e.f.bands[k] = bandPool.Get().(*bytes.Buffer)
		e.f.bands[k].Reset()
	}
	return e
}

// bandRows is the rows [y0, y1) of band k of an image h rows high.
func bandRows(k, h int) (y0, y1 int) { return h * k / bands, h * (k + 1) / bands }

// encode filters and deflates band k.
func (e *pngBands) encode(k int) {
	img, bpp := e.img, e.bpp
	b := img.Bounds()
	y0, y1 := bandRows(k, b.Dy())
	rows := rowPool.Get().(*rowBuffers)
	defer rowPool.Put(rows)
	cur, prev, line := rows.get(b.Dx(), bpp)
	fw := flatePool.Get().(*flate.Writer)
	defer flatePool.Put(fw)
	fw.Reset(e.f.bands[k])
	sum := uint32(1) // Adler-32 of nothing
	for y := y0; y < y1 && !e.clear.Load(); y++ {
		switch {
		case y == y0:
			if bpp == 3 && !opaqueRow(img, b.Min.Y+y) {
				e.clear.Store(true)
			}
			pixelRow(cur, img, b.Min.Y+y, bpp)
			filterRow(line, cur, nil, bpp)
		case bpp == 3:
			if !upRGB(line, img, b.Min.Y+y) {
				e.clear.Store(true)
			}
		default:
			pixelRow(cur, img, b.Min.Y+y, bpp)
			filterRow(line, cur, prev, bpp)
		}
		fw.Write(line) // writes to a bytes.Buffer do not fail
		sum = adler32Update(sum, line)
		cur, prev = prev, cur
	}
	if k == bands-1 {
		fw.Close()
	} else {
		fw.Flush()
	}
	e.parts[k].sum, e.parts[k].bytes = sum, int64(y1-y0)*int64(1+b.Dx()*bpp)
}

// finish puts the encoded bands together into a PNG, once every band is
// encoded.
func (e *pngBands) finish() *PNGFile {
	if e.clear.Load() {
		e.f.Release()
		return encodeBands(e.img, 4) // bpp 4 never finds the image clear
	}
	f, img, bpp := e.f, e.img, e.bpp
	w, h := img.Bounds().Dx(), img.Bounds().Dy()

	// IDAT: zlib header (deflate, 32K window, fastest), the bands, Adler-32.
	n := 2 + 4
	for _, band := range f.bands {
		n += band.Len()
	}
	head := bytes.NewBuffer(f.head[:0])
	head.WriteString("\x89PNG\r\n\x1a\n")
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8] = 8 // bit depth
	ihdr[9] = 2 // colour type RGB
	if bpp == 4 {
		ihdr[9] = 6 // RGBA
	}
	writeChunk(head, "IHDR", ihdr[:])

	var u32 [4]byte
	binary.BigEndian.PutUint32(u32[:], uint32(n))
	head.Write(u32[:])
	head.WriteString("IDAT\x78\x01")
	crc := crc32.NewIEEE()
	crc.Write(head.Bytes()[head.Len()-6:])
	sum := uint32(1) // Adler-32 of nothing
	for k, band := range f.bands {
		crc.Write(band.Bytes())
		sum = adler32Combine(sum, e.parts[k].sum, e.parts[k].bytes)
	}
	tail := bytes.NewBuffer(f.tail[:0])
	binary.BigEndian.PutUint32(u32[:], sum)
	tail.Write(u32[:])
	crc.Write(u32[:])
	binary.BigEndian.PutUint32(u32[:], crc.Sum32())
	tail.Write(u32[:])
	writeChunk(tail, "IEND", nil)
	f.head, f.tail = head.Bytes(), tail.Bytes()
	return f
}

// encodeBands encodes img with bpp bytes a pixel, the bands in parallel.
func encodeBands(img *image.RGBA, bpp int) *PNGFile {
	e := newPNGBands(img, bpp)
	parallel(bands, func(k0, k1 int) {
		for k := k0; k < k1; k++ {
			e.encode(k)
		}
	})
	return e.finish()
}

// rowBuffers are a band's two pixel rows and its filtered row.
type rowBuffers struct{ cur, prev, line []byte }

var rowPool = sync.Pool{New: func() any { return new(rowBuffers) }}

func (r *rowBuffers) get(w, bpp int) (cur, prev, line []byte) {
	if n := w * bpp; cap(r.line) < 1+n {
		r.cur, r.prev, r.line = make([]byte, n), make([]byte, n), make([]byte, 1+n)
	}
	n := w * bpp
	return r.cur[:n], r.prev[:n], r.line[:1+n]
}

// bands is how many row bands a PNG is deflated in; fixed, so that the
// output does not depend on the CPU count.
const bands = 8

// bandPool keeps the bands' deflated bytes between images: at about 35 KB
// a band, a fresh set was half of what an image allocated.
var bandPool = sync.Pool{New: func() any { return bytes.NewBuffer(make([]byte, 0, 64<<10)) }}

// PNGFile is an encoded PNG, held in pooled memory until Release: its
// signature and first chunks, the deflated row bands, then the rest.
type PNGFile struct {
	head, tail []byte
	bands      [bands]*bytes.Buffer
}

// Len is the PNG's size in bytes.
func (f *PNGFile) Len() int {
	n := len(f.head) + len(f.tail)
	for _, b := range f.bands {
		n += b.Len()
	}
	return n
}

// WriteTo writes the PNG to w.
func (f *PNGFile) WriteTo(w io.Writer) (int64, error) {
	var total int64
	for _, p := range f.pieces() {
		n, err := w.Write(p)
		total += int64(n)
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// Bytes is the PNG in one new slice.
func (f *PNGFile) Bytes() []byte {
	out := make([]byte, 0, f.Len())
	for _, p := range f.pieces() {
		out = append(out, p...)
	}
	return out
}

func (f *PNGFile) pieces() [][]byte {
	ps := make([][]byte, 0, bands+2)
	ps = append(ps, f.head)
	for _, b := range f.bands {
		ps = append(ps, b.Bytes())
	}
	return append(ps, f.tail)
}

// Release hands the PNG's memory back; f must not be used after.
func (f *PNGFile) Release() {
	for k, b := range f.bands {
		if b != nil {
			bandPool.Put(b)
			f.bands[k] = nil
		}
	}
}

// opaqueRow reports whether every pixel of row y is opaque.
func opaqueRow(img *image.RGBA, y int) bool {
	b := img.Bounds()
	row := img.Pix[img.PixOffset(b.Min.X, y):][:b.Dx()*4]
	for i := 3; i < len(row); i += 4 {
		if row[i] != 0xff {
			return false
		}
	}
	return true
}

// pixelRow copies row y of img into dst as RGB, or as straight-alpha RGBA
// when bpp is 4 (image.RGBA is premultiplied; PNG is not).
func pixelRow(dst []byte, img *image.RGBA, y, bpp int) {
	b := img.Bounds()
	src := img.Pix[img.PixOffset(b.Min.X, y):][:b.Dx()*4]
	if bpp == 3 {
		for x := 0; x < len(src)/4; x++ {
			s, d := src[x*4:x*4+3:x*4+3], dst[x*3:x*3+3:x*3+3]
			d[0], d[1], d[2] = s[0], s[1], s[2]
		}
		return
	}
	for x := 0; x < len(src)/4; x++ {
		r, g, bl, a := src[x*4], src[x*4+1], src[x*4+2], src[x*4+3]
		if a != 0 && a != 0xff {
			r, g, bl = unpremul(r, a), unpremul(g, a), unpremul(bl, a)
		}
		dst[x*4], dst[x*4+1], dst[x*4+2], dst[x*4+3] = r, g, bl, a
	}
}

func unpremul(c, a uint8) uint8 { return uint8((uint32(c)*0xff + uint32(a)/2) / uint32(a)) }

// filterRow writes the filtered row cur into dst: filter Up (type 2), or
// Sub (type 1) for the first row of a band, whose row above may not be
// drawn yet (pngBands). On these images Up compresses as well as Paeth or
// image/png's per-row choice among all five filters, for a fraction of the
// work.
func filterRow(dst, cur, prev []byte, bpp int) {
	d := dst[1 : 1+len(cur)]
	if prev == nil {
		dst[0] = 1
		copy(d[:bpp], cur[:bpp])
		for i := bpp; i < len(cur); i++ {
			d[i] = cur[i] - cur[i-bpp]
		}
		return
	}
	dst[0] = 2
	prev = prev[:len(cur)]
	for i, c := range cur {
		d[i] = c - prev[i]
	}
}

// upRGB writes row y of img, filtered Up, into dst as RGB: filterRow over
// two pixelRow copies, in one pass over the canvas. It reports whether the
// row is opaque, as an RGB row must be.
func upRGB(dst []byte, img *image.RGBA, y int) (opaque bool) {
	b := img.Bounds()
	w := b.Dx()
	cur := img.Pix[img.PixOffset(b.Min.X, y):][:w*4]
	prev := img.Pix[img.PixOffset(b.Min.X, y-1):][:w*4]
	dst[0] = 2
	d := dst[1 : 1+w*3]
	// Two pixels at a time: their eight bytes subtracted at once
	// (subBytes64), their six colour bytes stored as one word whose last
	// two bytes the next pixels' overwrite. The last pixel or two go byte
	// by byte.
	const alphas = 0xff000000ff000000
	all := uint64(alphas)
	x := 0
	for ; x+3 <= w; x += 2 {
		c, p := binary.LittleEndian.Uint64(cur[x*4:]), binary.LittleEndian.Uint64(prev[x*4:])
		all &= c
		v := subBytes64(c, p)
		binary.LittleEndian.PutUint64(d[x*3:], v&0xffffff|v>>8&0xffffff000000)
	}
	opaque = all == alphas
	for ; x < w; x++ {
		for k := range 3 {
			d[x*3+k] = cur[x*4+k] - prev[x*4+k]
		}
		opaque = opaque && cur[x*4+3] == 0xff
	}
	return opaque
}

// subBytes64 subtracts each byte of b from a's, modulo 256, without
// borrowing across bytes.
func subBytes64(a, b uint64) uint64 {
	const high = 0x8080808080808080
	return ((a | high) - (b &^ high)) ^ ((a ^ ^b) & high)
}

// adler32Update is the Adler-32 of the bytes summed into sum followed by
// p, as hash/adler32 works it out, eight bytes at a time: for bytes
// b0…b7, s1 grows by their sum and s2 by 8·s1 + 8·b0 + 7·b1 + … + 1·b7.
// The even and odd bytes sit in four 16-bit lanes each, and one
// multiplication gathers a lane's weighted sum into the top lane (no lane
// below it passes 16 bits, so nothing carries into it). Sums are reduced
// every nmax bytes, as hash/adler32 does, so neither overflows.
func adler32Update(sum uint32, p []byte) uint32 {
	const mod, nmax = 65521, 5552
	s1, s2 := sum&0xffff, sum>>16
	for len(p) > 0 {
		q := p[:min(len(p), nmax)]
		p = p[len(q):]
		for ; len(q) >= 8; q = q[8:] {
			v := binary.LittleEndian.Uint64(q)
			even, odd := v&0x00ff00ff00ff00ff, v>>8&0x00ff00ff00ff00ff
			s2 += 8*s1 + uint32(even*0x0008000600040002>>48) + uint32(odd*0x0007000500030001>>48)
			s1 += uint32((even + odd) * 0x0001000100010001 >> 48)
		}
		for _, b := range q {
			s1 += uint32(b)
			s2 += s1
		}
		s1, s2 = s1%mod, s2%mod
	}
	return s2<<16 | s1
}

// adler32Combine returns the Adler-32 of A followed by B from the sums of
// A and B and the length of B (zlib's adler32_combine).
func adler32Combine(a, b uint32, lenB int64) uint32 {
	const base = 65521
	rem := uint32(lenB % base)
	s1 := a & 0xffff
	s2 := rem * s1 % base
	s1 += (b & 0xffff) + base - 1
	s2 += (a >> 16) + (b >> 16) + base - rem
	for s1 >= base {
		s1 -= base
	}
	for s2 >= base {
		s2 -= base
	}
	return s1 | s2<<16
}

// flatePool holds deflate writers at level 1. klauspost/compress's level 1
// makes the same size of stream as compress/flate's BestSpeed on these
// images in 60% of the time (docs/performance.md, "Social images").
var flatePool = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, flate.BestSpeed) // BestSpeed is a valid level
	return w
}}

func writeChunk(out *bytes.Buffer, typ string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	out.Write(n[:])
	crc := crc32.NewIEEE()
	crc.Write([]byte(typ))
	crc.Write(data)
	out.WriteString(typ)
	out.Write(data)
	binary.BigEndian.PutUint32(n[:], crc.Sum32())
	out.Write(n[:])
}
