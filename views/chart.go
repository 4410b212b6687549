package views

import (
	"strconv"
	"time"

	"github.com/plazahq/plaza/api"
)

// Chart is one series drawn as bars: what it counts and its buckets.
type Chart struct {
	ID     string
	Title  string
	Bucket string // hour or day
	Points []ChartPoint
}

// ChartPoint is one bucket's count.
type ChartPoint struct {
	At    time.Time
	Value int
}

// chart geometry: the bars' own SVG units, stretched to the width the
// chart has. Labels are drawn outside that stretch, in CSS pixels, so they
// stay their size (11 px and up) however narrow the chart is.
const (
	chartW, chartH = 600, 144
	chartTop       = 8
)

// ChartsOf splits an analytics series into one chart per count it holds.
func ChartsOf(s api.V1Series) []Chart {
	specs := []struct {
		id, title string
		get       func(p api.V1SeriesPoint) *int
	}{
		{"new-users", "New users", func(p api.V1SeriesPoint) *int { return p.NewUsers }},
		{"new-posts", "New posts", func(p api.V1SeriesPoint) *int { return p.NewPosts }},
		{"events", "Events", func(p api.V1SeriesPoint) *int { return p.Events }},
		{"moderation-actions", "Moderation actions", func(p api.V1SeriesPoint) *int { return p.ModerationActions }},
	}
	var out []Chart
	for _, sp := range specs {
		c := Chart{ID: sp.id, Title: sp.title, Bucket: s.Bucket}
		for _, p := range s.Points {
			v := sp.get(p)
			if v == nil {
				c.Points = nil
				break
			}
			c.Points = append(c.Points, ChartPoint{At: parseTime(p.At), Value: *v})
		}
		if len(c.Points) > 0 {
			out = append(out, c)
		}
	}
	return out
}

func (c Chart) max() int {
	m := 0
	for _, p := range c.Points {
		m = max(m, p.Value)
	}
	return max(m, 1)
}

// Total is the sum of the chart's buckets.
func (c Chart) Total() int {
	t := 0
	for _, p := range c.Points {
		t += p.Value
	}
	return t
}

// bar is one bucket's rectangle.
type bar struct {
	X, Y, W, H string
	Label      string
}

func (c Chart) bars() []bar {
	n := len(c.Points)
	slot := float64(chartW) / float64(max(n, 1))
	m := float64(c.max())
	out := make([]bar, n)
	for i, p := range c.Points {
		h := float64(chartH-chartTop) * float64(p.Value) / m
		out[i] = bar{X: num(float64(i)*slot + slot*0.1), Y: num(chartH - h),
			W: num(max(slot*0.8, 0.5)), H: num(h), Label: c.label(p.At) + ": " + count(p.Value)}
	}
	return out
}

// tick is an x-axis label, placed at a share of the chart's width.
type tick struct {
	X, Anchor, Text string
}

// ticks label the first, middle and last buckets.
func (c Chart) ticks() []tick {
	n := len(c.Points)
	if n == 0 {
		return nil
	}
	at := func(i int, anchor string) tick {
		x := 100 * (float64(i) + 0.5) / float64(n)
		switch anchor {
		case "start":
			x = 0
		case "end":
			x = 100
		}
		return tick{X: num(x) + "%", Anchor: anchor, Text: c.label(c.Points[i].At)}
	}
	if n < 3 {
		return []tick{at(0, "start")}
	}
	return []tick{at(0, "start"), at(n/2, "middle"), at(n-1, "end")}
}

// label names a bucket: its hour, or its day.
func (c Chart) label(t time.Time) string {
	if c.Bucket == "hour" {
		return t.UTC().Format("2 Jan 15:00")
	}
	return t.UTC().Format("2 Jan")
}

// summary says what the chart shows in words, for its title.
func (c Chart) summary() string {
	return c.Title + " per " + c.Bucket + ": " + count(c.Total()) + " in all, at most " + count(c.max()) + " in one " + c.Bucket
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) }
