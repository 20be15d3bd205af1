package session

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// A Root is one entry of jig's answer to roots/list: a file:// URI and a
// name for people.
type Root struct {
	URI  string `json:"uri"`
	Name string `json:"name,omitempty"`
}

// RootOf turns what a user typed for --root into a Root: a directory (made
// absolute, and it must exist) or a URI given as is ("file:///srv/data").
func RootOf(arg string) (Root, error) {
	if arg == "" {
		return Root{}, fmt.Errorf("--root: empty; give a directory or a file:// URI")
	}
	if u, err := url.Parse(arg); err == nil && u.Scheme != "" && len(u.Scheme) > 1 && strings.Contains(arg, "://") {
		return Root{URI: arg, Name: filepath.Base(u.Path)}, nil
	}
	abs, err := filepath.Abs(arg)
	if err != nil {
		return Root{}, fmt.Errorf("--root %s: %v", arg, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return Root{}, fmt.Errorf("--root %s: %v (give an existing directory)", arg, pathErrText(err))
	}
	if !st.IsDir() {
		return Root{}, fmt.Errorf("--root %s: not a directory", arg)
	}
	return Root{URI: (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String(), Name: filepath.Base(abs)}, nil
}

func pathErrText(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}
