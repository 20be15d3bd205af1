package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpjig/jig/frames"
)

// w asks where to write before it writes: a path in the working directory
// is offered (the next name no file has), enter writes there, esc writes
// nothing. A file that exists is never replaced: the dialog says so and
// stays open for another name.

type writeDialog struct {
	width int
	st    *styles
	out   *outbox
	keys  writeKeys
	edit  *textEdit
	data  []byte // redacted already
}

func newWriteDialog(st *styles, out *outbox, path string, data []byte) *writeDialog {
	d := &writeDialog{st: st, out: out, keys: newWriteKeys(), edit: newTextEdit(st, true), data: data}
	d.edit.setValue(path)
	d.edit.cursorEnd()
	return d
}

func (d *writeDialog) title() string { return "Write to a file" }
func (d *writeDialog) typing() bool  { return true }

func (d *writeDialog) about() string {
	return d.st.muted.Width(max(d.width, 1)).Render(fmt.Sprintf("%s, as it crossed (secrets redacted). enter writes it to this path; an existing file is never replaced. esc writes nothing.",
		frames.HumanSize(len(d.data))))
}

func (d *writeDialog) setSize(w, h int) { d.width = w; d.edit.setSize(w, 1) }

func (d *writeDialog) update(msg tea.Msg) tea.Cmd {
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg:
		d.edit.update(msg)
	}
	return nil
}

func (d *writeDialog) actions() []action {
	k := d.keys
	as := []action{
		on(k.Write, func() tea.Cmd {
			path := strings.TrimSpace(d.edit.value())
			if path == "" {
				return d.out.send(statusMsg{text: "write: give the file a path", isErr: true})
			}
			return writeFile(path, d.data)
		}),
		on(k.Close, func() tea.Cmd {
			d.out.send(closeOverlayMsg{})
			return d.out.send(statusMsg{text: "nothing written"})
		}),
	}
	return append(as, fieldActions(d.edit, func(k tea.KeyPressMsg) tea.Cmd { d.edit.update(k); return nil })...)
}

func (d *writeDialog) view() string {
	d.edit.focus()
	return d.about() + "\n\n" + d.edit.view()
}

// freePath is dir/base.json, or base-N.json for the first N no file has.
func freePath(dir, base string) string {
	for i := 0; i < 1000; i++ {
		p := filepath.Join(dir, base+".json")
		if i > 0 {
			p = filepath.Join(dir, fmt.Sprintf("%s-%d.json", base, i))
		}
		if _, err := os.Lstat(p); os.IsNotExist(err) {
			if abs, err := filepath.Abs(p); err == nil {
				return abs // where it goes, said whole
			}
			return p
		}
	}
	return filepath.Join(dir, base+".json")
}

// writeFile writes data to path, a new file: an existing one is refused.
func writeFile(path string, data []byte) tea.Cmd {
	return run(func() routed {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, frames.PrivateFile)
		if os.IsExist(err) {
			return savedMsg{err: fmt.Errorf("%s exists: jig never replaces a file; give another name", path), keepOpen: true}
		}
		if err != nil {
			return savedMsg{err: fmt.Errorf("write %s: %w", path, err), keepOpen: true}
		}
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return savedMsg{err: fmt.Errorf("write %s: %w", path, err), keepOpen: true}
		}
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
		return savedMsg{path: path}
	})
}
