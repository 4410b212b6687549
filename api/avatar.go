package api

// AvatarFailure is the body of the avatar endpoint's errors (interface.md
// 7.3): {error, status}.
type AvatarFailure struct {
	Error  string `json:"error"`
	Status int    `json:"status"`
}

// ErrAvatar is an avatar-image error; FamilyAvatar writes it as {error, status}.
func ErrAvatar(status int, msg string) *Error {
	return &Error{Status: status, Code: CodeForStatus(status), Message: msg}
}
