package views

import "regexp"

// linkPart is a piece of a message's text: a web address or the words
// between.
type linkPart struct {
	Text string
	Link bool
}

var webAddress = regexp.MustCompile(`https?://[^\s<>"]+`)

// linkParts cuts text into its web addresses and the rest, so that a
// held message's link can be followed from the mail page.
func linkParts(text string) []linkPart {
	var out []linkPart
	last := 0
	for _, at := range webAddress.FindAllStringIndex(text, -1) {
		if at[0] > last {
			out = append(out, linkPart{Text: text[last:at[0]]})
		}
		out = append(out, linkPart{Text: text[at[0]:at[1]], Link: true})
		last = at[1]
	}
	if last < len(text) {
		out = append(out, linkPart{Text: text[last:]})
	}
	return out
}
