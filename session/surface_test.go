package session

import (
	"os"
	"strings"
	"testing"

	"github.com/mcpjig/jig/frames/fixture"
	"github.com/mcpjig/jig/frames/surface"
	"github.com/mcpjig/jig/session/peers"
)

func surfaceOf(t *testing.T, target Target) *surface.Surface {
	t.Helper()
	s := open(t, Options{Target: target})
	sf, err := s.Surface(ctx(t))
	if err != nil {
		t.Fatalf("Surface(%s): %v", target, err)
	}
	return sf
}

// The demo's release 2 changes one tool's definition, and the surface diff
// says so once, classified as the demo documents it.
func TestSurfaceDemoReleases(t *testing.T) {
	one := surfaceOf(t, Target{Transport: TransportDemo, Release: 1})
	if len(one.Tools) != 6 || len(one.Resources) != 1 || len(one.Prompts) != 1 || one.Instructions == "" || one.Server.Name != "jig-demo" {
		t.Fatalf("release 1's surface: %d tools, %d resources, %d prompts, instructions %q, server %+v",
			len(one.Tools), len(one.Resources), len(one.Prompts), one.Instructions, one.Server)
	}
	if d := surface.Compare(one, surfaceOf(t, Target{Transport: TransportDemo, Release: 1})); len(d.Changes) != 0 {
		t.Errorf("the same release listed twice has changes: %v", d.Items())
	}
	d := surface.Compare(one, surfaceOf(t, Target{Transport: TransportDemo, Release: 2}))
	if items := d.Items(); len(items) != 1 || items[0] != "tool search_orders" {
		t.Fatalf("release 1 → 2 changed %q, want only tool search_orders", items)
	}
	classes := map[string]bool{}
	for _, x := range d.Changes[0].Differences {
		classes[x.Class] = true
	}
	for _, want := range []string{fixture.ClassDescriptionEdited, fixture.ClassConstraintTightened, fixture.ClassEnumChanged, fixture.ClassArgumentRenamed} {
		if !classes[want] {
			var b strings.Builder
			d.WriteText(&b, false)
			t.Errorf("release 2's search_orders: no %s change:\n%s", want, b.String())
		}
	}
}

// A real server listed twice has the same surface, and a real upgrade's
// changes are classified (server-filesystem 2025.7.1 → 2026.8.31).
func TestSurfaceRealUpgrade(t *testing.T) {
	dir := t.TempDir()
	list := func(rel string) *surface.Surface {
		return surfaceOf(t, Target{Transport: TransportStdio, Command: append(peers.Node(t, rel, dir)[:2], dir)})
	}
	old := list(peers.FilesystemOld)
	if d := surface.Compare(old, list(peers.FilesystemOld)); len(d.Changes) != 0 {
		t.Errorf("server-filesystem listed twice has changes: %v", d.Items())
	}
	d := surface.Compare(old, list(peers.FilesystemNew))
	var b strings.Builder
	d.WriteText(&b, false)
	if d.Worst() != fixture.Breaking || len(d.Changes) == 0 {
		t.Fatalf("server-filesystem 2025.7.1 → 2026.8.31: %s", b.String())
	}
	for _, c := range d.Changes {
		for _, x := range c.Differences {
			if x.Severity > fixture.Cosmetic && strings.HasPrefix(x.Path, "/tool") && x.Class == "" {
				t.Errorf("%s: %s is not classified", c.Item, x.Path)
			}
		}
	}
	if os.Getenv("JIG_SHOW_SURFACE") != "" {
		t.Log("\n" + b.String())
	}
}
