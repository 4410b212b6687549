// Command generate writes the Go SDK (package client) from Plaza's OpenAPI
// document: it builds the document from the route table as the server
// does (web.OpenAPIFor), saves it to a temporary file and runs the
// oapi-codegen tool pinned in go.mod with the committed configuration.
// `go generate ./client` runs it; `make check-generated` fails when the
// committed output differs from what it makes (docs/api.md, "The Go SDK").
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/plazahq/plaza/web"
)

func main() {
	config := flag.String("config", "oapi-codegen.yaml", "oapi-codegen's configuration")
	flag.Parse()
	if err := run(*config); err != nil {
		fmt.Fprintln(os.Stderr, "generate the SDK:", err)
		os.Exit(1)
	}
}

func run(config string) error {
	// The document's version is the SDK's input only, and a fixed one
	// keeps a release's version bump from staling the generated code.
	doc, err := web.OpenAPIFor("sdk")
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "plaza-sdk-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	spec := filepath.Join(dir, "openapi.json")
	if err := os.WriteFile(spec, doc, 0o600); err != nil {
		return err
	}
	cmd := exec.Command("go", "tool", "oapi-codegen", "-config", config, spec)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return cmd.Run()
}
