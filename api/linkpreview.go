package api

// LinkPreview is the body of GET /api/link-preview.
type LinkPreview struct {
	Title       string `json:"title"`
	Description string `json:"description"`
	Image       string `json:"image"`
	URL         string `json:"url"`
}
