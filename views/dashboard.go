package views

import "github.com/plazahq/plaza/api"

// noData is what a figure reads when nothing was measured to make it: a
// zero there would claim a measurement.
const noData = "No data yet"

// orNoData is value when there was data to compute it from, else noData.
func orNoData(value string, measured bool) string {
	if !measured || value == "" {
		return noData
	}
	return value
}

// hasEvents reports whether the window holds any analytics event, which
// the engagement figures are made from.
func hasEvents(a *api.V1Analytics) bool {
	for _, p := range a.Series.Points {
		if p.Events != nil && *p.Events > 0 {
			return true
		}
	}
	return false
}
