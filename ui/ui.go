// Package ui holds the appliance's HTML pages (templ components) and the
// static assets they use, all embedded in the binary.
package ui

import (
	"embed"
	"io/fs"
)

//go:embed assets
var assets embed.FS

// Assets is the folder of static files served under /assets/.
func Assets() fs.FS {
	sub, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err) // the folder is embedded at build time; it cannot be missing
	}
	return sub
}
