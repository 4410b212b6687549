package ogimage

import (
	"encoding/base64"
	"math"
	"strconv"
)

// SVG writes the scene as an SVG document. The same scene gives the same
// bytes.
func (s *Scene) SVG() []byte {
	w := svgWriter{b: make([]byte, 0, 24<<10+base64.StdEncoding.EncodedLen(len(s.avatar)))}
	id := func(name string) string { return s.idBase + "-" + name }
	accent := palette[s.accent]
	p := panelRect

	w.s(`<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630" role="img">`)
	w.s(`<title>`)
	w.text(s.quote)
	w.s(`</title>`)
	if s.author != "" {
		w.s(`<desc>`)
		w.text("— " + s.author)
		w.s(`</desc>`)
	}

	// Definitions: glass blur, shadow blur, panel clip, sheen, glow, avatar fade.
	w.s(`<defs>`)
	w.s(`<filter id="`).s(id("glass")).s(`" x="0" y="0" width="1200" height="630" filterUnits="userSpaceOnUse" color-interpolation-filters="sRGB"><feGaussianBlur stdDeviation="`)
	w.f(r2(math.Sqrt(glassRadius * (glassRadius + 1))))
	w.s(`"/></filter>`)
	w.s(`<filter id="`).s(id("shadow")).s(`" x="-20%" y="-20%" width="140%" height="140%" color-interpolation-filters="sRGB"><feGaussianBlur stdDeviation="`)
	w.f(r2(math.Sqrt(shadowRadius * (shadowRadius + 1))))
	w.s(`"/></filter>`)
	w.s(`<clipPath id="`).s(id("panel")).s(`">`)
	w.rect(p, panelRadius)
	w.s(`/></clipPath>`)
	w.s(`<linearGradient id="`).s(id("sheen")).s(`" gradientUnits="userSpaceOnUse"`)
	w.attr("x1", p.x).attr("y1", p.y).attr("x2", p.right()).attr("y2", p.bottom())
	w.s(`><stop offset="0" stop-color="#ffffff" stop-opacity="`).f(sheenFrom)
	w.s(`"/><stop offset="1" stop-color="#ffffff" stop-opacity="`).f(sheenTo)
	w.s(`"/></linearGradient>`)
	ax, ay := avatarRect.x+avatarRect.w/2, avatarRect.y+avatarRect.h/2
	w.s(`<radialGradient id="`).s(id("glow")).s(`" gradientUnits="userSpaceOnUse"`)
	w.attr("cx", ax).attr("cy", ay).attr("r", glowRadius)
	w.s(`><stop offset="0" stop-color="`).s(accent).s(`" stop-opacity="`).f(glowAlpha)
	w.s(`"/><stop offset="1" stop-color="`).s(accent).s(`" stop-opacity="0"/></radialGradient>`)
	if s.avatar != nil {
		w.s(`<radialGradient id="`).s(id("fade")).s(`" gradientUnits="userSpaceOnUse"`)
		w.attr("cx", ax).attr("cy", ay).attr("r", avatarRect.w/2)
		w.s(`><stop offset="`).f(fadeFrom).s(`" stop-color="#ffffff" stop-opacity="1"/><stop offset="1" stop-color="#ffffff" stop-opacity="0"/></radialGradient>`)
		w.s(`<mask id="`).s(id("mask")).s(`" maskUnits="userSpaceOnUse"`)
		w.attr("x", avatarRect.x).attr("y", avatarRect.y).attr("width", avatarRect.w).attr("height", avatarRect.h)
		w.s(`>`)
		w.rect(avatarRect, 0)
		w.s(` fill="url(#`).s(id("fade")).s(`)"/></mask>`)
	}
	w.s(`</defs>`)

	// The background: canvas, pattern layers, glow. The glass shows a
	// blurred copy of exactly this group.
	w.s(`<g id="`).s(id("bg")).s(`"><rect width="1200" height="630" fill="#0a0a0a"/>`)
	for _, l := range s.layers {
		w.s(`<g data-pattern="`).s(l.kind.String()).s(`">`)
		for i := range l.shapes {
			w.shape(&l.shapes[i])
		}
		w.s(`</g>`)
	}
	w.s(`<circle`).attr("cx", ax).attr("cy", ay).attr("r", glowRadius)
	w.s(` fill="url(#`).s(id("glow")).s(`)"/>`)
	w.s(`</g>`)

	// Glass panel: shadow, blurred background, dark tint, sheen and edge.
	w.rect(rect{p.x, p.y + shadowOffset, p.w, p.h}, panelRadius)
	w.s(` fill="#000000" fill-opacity="`).f(shadowAlpha).s(`" filter="url(#`).s(id("shadow")).s(`)"/>`)
	w.s(`<g clip-path="url(#`).s(id("panel")).s(`)"><use href="#`).s(id("bg")).s(`" filter="url(#`).s(id("glass")).s(`)"/></g>`)
	w.rect(p, panelRadius)
	w.s(` fill="#0a0a0a" fill-opacity="`).f(tintAlpha).s(`"/>`)
	w.rect(p, panelRadius)
	w.s(` fill="url(#`).s(id("sheen")).s(`)" stroke="#ffffff" stroke-opacity="`).f(edgeAlpha)
	w.s(`" stroke-width="`).f(edgeWidth).s(`"/>`)

	// Quotation mark.
	w.s(`<path d="`)
	w.pathOps(s.mark)
	w.s(`" fill="`).s(accent).s(`"/>`)

	// Avatar, faded by the mask.
	if s.avatar != nil {
		w.s(`<image`).attr("x", avatarRect.x).attr("y", avatarRect.y).attr("width", avatarRect.w).attr("height", avatarRect.h)
		w.s(` href="data:image/svg+xml;base64,`)
		w.b = base64.StdEncoding.AppendEncode(w.b, s.avatar)
		w.s(`" mask="url(#`).s(id("mask")).s(`)"/>`)
	}

	// Text: one <text> per laid-out line, its width pinned to the measure.
	w.s(`<g font-family="`).s(fontFamily).s(`" font-weight="500" fill="#ffffff">`)
	for _, l := range s.lines {
		w.line(l)
	}
	w.s(`</g>`)
	if s.byline != nil {
		w.rect(s.bar, 1.5)
		w.s(` fill="`).s(accent).s(`"/>`)
		w.s(`<g font-family="`).s(authorFamily).s(`" font-style="italic" fill="#ffffff" fill-opacity="`).f(authorAlpha).s(`">`)
		w.line(*s.byline)
		w.s(`</g>`)
	}

	// Border in the most used pattern colour.
	h := borderWidth / 2.0
	w.rect(rect{h, h, Width - borderWidth, Height - borderWidth}, 0)
	w.s(` fill="none" stroke="`).s(accent).s(`" stroke-width="`).f(borderWidth).s(`"/>`)
	w.s(`</svg>`)
	return w.b
}

type svgWriter struct{ b []byte }

func (w *svgWriter) s(str string) *svgWriter { w.b = append(w.b, str...); return w }

func (w *svgWriter) f(v float64) *svgWriter {
	w.b = strconv.AppendFloat(w.b, v, 'f', -1, 64)
	return w
}

func (w *svgWriter) attr(name string, v float64) *svgWriter {
	w.b = append(w.b, ' ')
	w.b = append(w.b, name...)
	w.b = append(w.b, '=', '"')
	w.f(v)
	w.b = append(w.b, '"')
	return w
}

// rect writes an unterminated <rect …; the caller adds attributes and "/>".
func (w *svgWriter) rect(r rect, rx float64) {
	w.s(`<rect`).attr("x", r.x).attr("y", r.y).attr("width", r.w).attr("height", r.h)
	if rx > 0 {
		w.attr("rx", rx)
	}
}

func (w *svgWriter) pt(p point) {
	w.f(p.x)
	w.b = append(w.b, ' ')
	w.f(p.y)
}

func (w *svgWriter) shape(sh *shape) {
	col := palette[sh.color]
	if sh.circle {
		w.s(`<circle`).attr("cx", sh.cx).attr("cy", sh.cy).attr("r", sh.r)
	} else {
		w.s(`<path d="`)
		for _, sub := range sh.paths {
			for i, p := range sub {
				if i == 0 {
					w.b = append(w.b, 'M')
				} else {
					w.b = append(w.b, 'L')
				}
				w.pt(p)
			}
			if sh.closed {
				w.b = append(w.b, 'Z')
			}
		}
		w.s(`"`)
	}
	if sh.fill > 0 {
		w.s(` fill="`).s(col).s(`" fill-opacity="`).f(sh.fill).s(`"`)
	} else {
		w.s(` fill="none"`)
	}
	if sh.stroke > 0 {
		w.s(` stroke="`).s(col).s(`" stroke-opacity="`).f(sh.stroke).s(`"`).attr("stroke-width", sh.width)
		if !sh.closed && !sh.circle {
			w.s(` stroke-linecap="round"`)
		}
		w.s(` stroke-linejoin="round"`)
	}
	w.s(`/>`)
}

func (w *svgWriter) pathOps(ops []pathOp) {
	for _, op := range ops {
		w.b = append(w.b, op.op)
		switch op.op {
		case 'M', 'L':
			w.pt(op.pts[0])
		case 'Q':
			w.pt(op.pts[0])
			w.b = append(w.b, ' ')
			w.pt(op.pts[1])
		}
	}
}

func (w *svgWriter) line(l Line) {
	w.s(`<text`).attr("x", l.X).attr("y", l.Y).attr("font-size", l.Size).attr("textLength", l.Width)
	w.s(` lengthAdjust="spacingAndGlyphs">`)
	w.text(l.Text)
	w.s(`</text>`)
}

// text appends s escaped for XML character data and attribute values.
func (w *svgWriter) text(s string) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '&':
			w.s("&amp;")
		case '<':
			w.s("&lt;")
		case '>':
			w.s("&gt;")
		case '"':
			w.s("&quot;")
		case '\'':
			w.s("&#39;")
		default:
			w.b = append(w.b, c)
		}
	}
}
