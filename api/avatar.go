package api

// ExactBody marks error details that are a family's whole body, written as
// they are (the analytics collector's and the avatar endpoint's shapes).
type ExactBody interface{ exactBody() }

func (CollectFailure) exactBody() {}

// AvatarFailure is the body of the avatar endpoint's errors (interface.md
// 7.3): {error, status}.
type AvatarFailure struct {
	Error  string `json:"error"`
	Status int    `json:"status"`
}

func (AvatarFailure) exactBody() {}

// ErrAvatar is an avatar-image error with its {error, status} body.
func ErrAvatar(status int, msg string) *Error {
	return &Error{Status: status, Code: CodeForStatus(status), Message: msg, Details: AvatarFailure{Error: msg, Status: status}}
}

// PathAvatarImage is the avatar endpoint.
const PathAvatarImage = "/api/avatar-image"
