package api

// V1Reasons are the reason presets the console offers for bans and
// moderation (Plaza's addition): a short list admins edit.
type V1Reasons struct {
	Reasons []string `json:"reasons" required:"true" minItems:"1" maxItems:"50" description:"Each 1 to 100 characters, each once."`
}
