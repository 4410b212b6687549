package ogimage

import (
	"encoding/xml"
	"testing"
)

func TestFallbackSVG(t *testing.T) {
	var doc struct {
		Width  string `xml:"width,attr"`
		Height string `xml:"height,attr"`
		Rect   struct {
			Width  string `xml:"width,attr"`
			Height string `xml:"height,attr"`
			Fill   string `xml:"fill,attr"`
		} `xml:"rect"`
		G struct {
			Anchor string `xml:"text-anchor,attr"`
			Texts  []struct {
				X    string `xml:"x,attr"`
				Size string `xml:"font-size,attr"`
				Text string `xml:",chardata"`
			} `xml:"text"`
		} `xml:"g"`
	}
	b := FallbackSVG()
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Width != "1200" || doc.Height != "630" || doc.Rect.Width != "1200" || doc.Rect.Height != "630" || doc.Rect.Fill != Background {
		t.Errorf("canvas %sx%s, rect %sx%s %s; want 1200x630 filled #0a0a0a", doc.Width, doc.Height, doc.Rect.Width, doc.Rect.Height, doc.Rect.Fill)
	}
	if doc.G.Anchor != "middle" || len(doc.G.Texts) != 2 {
		t.Fatalf("want two centred texts, got anchor %q and %d texts", doc.G.Anchor, len(doc.G.Texts))
	}
	name, tagline := doc.G.Texts[0], doc.G.Texts[1]
	if name.Text != "Plaza" || name.Size != "48" || name.X != "600" {
		t.Errorf("name %+v, want Plaza at 48px centred", name)
	}
	if tagline.Text == "" || tagline.Size != "24" || tagline.X != "600" {
		t.Errorf("tagline %+v, want text at 24px centred", tagline)
	}
	b[0] = 'X'
	if FallbackSVG()[0] != '<' {
		t.Error("FallbackSVG shares its bytes between calls")
	}
}
