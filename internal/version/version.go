// Package version tells which release of Plaza is running (/api/version,
// /api/health): major.minor.patch, from the build's -ldflags, else the module
// version in the binary's build information, else the VERSION file.
package version

import (
	"errors"
	"regexp"
	"runtime/debug"
	"strings"
)

// stamped is set at build time:
// go build -ldflags "-X github.com/plazahq/plaza/internal/version.stamped=1.2.3"
var stamped string

var semver = regexp.MustCompile(`^\d+\.\d+\.\d+$`)

// ErrUnknown means no source gave a major.minor.patch version.
var ErrUnknown = errors.New("no major.minor.patch version in -ldflags, build information or the VERSION file")

// Resolve picks the running version from, in order, the -ldflags stamp, the
// module version of the build and the contents of the VERSION file.
func Resolve(versionFile string) (string, error) {
	var module string
	if bi, ok := debug.ReadBuildInfo(); ok {
		module = bi.Main.Version
	}
	return pick(stamped, module, versionFile)
}

func pick(candidates ...string) (string, error) {
	for _, c := range candidates {
		v := strings.TrimPrefix(strings.TrimSpace(c), "v")
		if semver.MatchString(v) {
			return v, nil
		}
	}
	return "", ErrUnknown
}
