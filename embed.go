package main

import (
	"embed"
	"io/fs"
)

// static holds the built CSS, htmx and the viewer's script; templ output is
// compiled Go, so together they make the binary self-contained.
//
//go:embed static
var static embed.FS

// versionFile is the last fallback for the running version.
//
//go:embed VERSION
var versionFile string

func staticFS() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	return sub
}
