package api

// AvatarFailure is the body of the avatar endpoint's errors: {error,
// status}, unlike the other public utilities' {error, details}.
type AvatarFailure struct {
	Error  string `json:"error"`
	Status int    `json:"status"`
}

// ErrAvatar is an avatar-image error; FamilyAvatar writes it as {error, status}.
func ErrAvatar(status int, msg string) *Error {
	return &Error{Status: status, Code: CodeForStatus(status), Message: msg}
}
