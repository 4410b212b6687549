package linkpreview

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// benchWant is what benchPage's metadata says.
var benchWant = Meta{
	Title:       "Benchmark — a page of about one MiB",
	Description: "Open Graph description of the benchmark page",
	Image:       "https://cdn.example.test/og/bench.png",
}

const benchTags = `<meta property="og:title" content="Benchmark &mdash; a page of about one MiB">
<meta property="og:description" content="Open Graph description of the benchmark page">
<meta property="og:image" content="https://cdn.example.test/og/bench.png">
<meta name="twitter:card" content="summary_large_image">
`

// benchPage builds a realistic page of about size bytes: a head with
// stylesheets, preloads and inline scripts, then a feed of article cards
// with links, lazy images, inline SVG icons, comments and now and then a
// large inline script. The Open Graph tags sit in <head> (inHead) or just
// before </body>.
func benchPage(size int, inHead bool) []byte {
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	b.WriteString(`<meta name="viewport" content="width=device-width, initial-scale=1">` + "\n")
	if inHead {
		b.WriteString(benchTags)
	}
	for i := 0; i < 12; i++ {
		fmt.Fprintf(&b, "<link rel=\"stylesheet\" href=\"/assets/css/chunk-%d.css?v=3f9a2c\" media=\"all\">\n", i)
		fmt.Fprintf(&b, "<link rel=\"preload\" as=\"font\" href=\"/assets/fonts/f%d.woff2\" crossorigin>\n", i)
	}
	b.WriteString("<script>window.__CONFIG__ = {\"api\": \"/api\", \"features\": [\"a\", \"b\"], \"html\": \"<div class=\\\"x\\\"></div>\"};</script>\n")
	b.WriteString("<style>body{margin:0;font:16px/1.5 system-ui} .card{display:grid} .card > a:hover{color:#333}</style>\n")
	b.WriteString("</head>\n<body class=\"home\">\n<header class=\"site\"><nav><ul>")
	for i := 0; i < 8; i++ {
		fmt.Fprintf(&b, "<li class=\"nav-item\"><a href=\"/section/%d\" class=\"nav-link\">Section %d</a></li>", i, i)
	}
	b.WriteString("</ul></nav></header>\n<main id=\"feed\">\n")
	end := size - len(benchTags) - 40
	for i := 0; b.Len() < end; i++ {
		fmt.Fprintf(&b, `<article class="card card--compact" data-id="%d" data-score="%d">
  <a href="/posts/%d-a-post-title" class="card-link"><img src="/img/%d.jpg" alt="Picture %d" loading="lazy" width="320" height="180"></a>
  <h2 class="card-title"><a href="/posts/%d-a-post-title">Post %d: a title with &amp; and &quot;quotes&quot;</a></h2>
  <p class="excerpt">Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam &hellip;</p>
  <footer class="meta"><svg class="icon" viewBox="0 0 16 16" aria-hidden="true"><path d="M8 0a8 8 0 1 0 0 16A8 8 0 0 0 8 0z"/></svg>
  <time datetime="2024-03-%02d">March %d</time> &middot; <span class="author">Author %d</span> <!-- card %d --></footer>
</article>
`, i, i*7%100, i, i, i, i, i, i%28+1, i%28+1, i%50, i)
		if i%40 == 39 {
			b.WriteString("<script>(function(){var items=[];for(var i=0;i<10;i++){items.push('<li>'+i+'</li>');}" +
				"if(a<b&&b>c){document.querySelector('#feed').insertAdjacentHTML('beforeend','<ul>'+items.join('')+'</ul>');}})();" +
				strings.Repeat("/* padding to make inline scripts realistic in size */", 20) + "</script>\n")
		}
	}
	b.WriteString("</main>\n")
	if !inHead {
		b.WriteString(benchTags)
	}
	b.WriteString("</body>\n</html>\n")
	return b.Bytes()
}

// BenchmarkExtract measures Extract on 1 MiB pages (docs/performance.md,
// "Link previews"): tags in <head> (target under 2 ms) and tags last (under
// 15 ms), against the x/net/html Tokenizer driving the same extractor.
func BenchmarkExtract(b *testing.B) {
	base := mustURL(b, "https://example.test/posts/1")
	for _, bc := range []struct {
		name   string
		inHead bool
	}{{"head_1MiB", true}, {"last_1MiB", false}} {
		page := benchPage(1<<20, bc.inHead)
		for _, impl := range []struct {
			name string
			fn   func() (Meta, error)
		}{
			{"scanner", func() (Meta, error) { return Extract(bytes.NewReader(page), "text/html; charset=utf-8", base) }},
			{"xnethtml", func() (Meta, error) {
				return extractReference(bytes.NewReader(page), "text/html; charset=utf-8", base)
			}},
		} {
			b.Run(bc.name+"/"+impl.name, func(b *testing.B) {
				b.SetBytes(int64(len(page)))
				b.ReportAllocs()
				for b.Loop() {
					m, err := impl.fn()
					if err != nil || m != benchWant {
						b.Fatalf("got %+v, %v", m, err)
					}
				}
			})
		}
	}
}

// BenchmarkExtractWindows1252 measures the decoding path on a page that is
// not UTF-8, tags last.
func BenchmarkExtractWindows1252(b *testing.B) {
	base := mustURL(b, "https://example.test/posts/1")
	page := benchPage(1<<20, false)
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Extract(bytes.NewReader(page), "text/html; charset=windows-1252", base); err != nil {
			b.Fatal(err)
		}
	}
}
