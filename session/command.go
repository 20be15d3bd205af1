package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"syscall"
)

// LookCommand finds the program a server command starts, and when it
// cannot, says what was found instead and the next step: a directory is
// a directory, a file without execute permission is not executable, and
// only a name found nowhere is "not installed or not on PATH".
func LookCommand(name string) (string, error) {
	path, err := exec.LookPath(name)
	if err == nil {
		return path, nil
	}
	if !strings.Contains(name, "/") {
		if errors.Is(err, exec.ErrNotFound) {
			return "", fmt.Errorf("cannot find %q on PATH (is it installed? give its full path, or add its directory to PATH)", name)
		}
		return "", fmt.Errorf("cannot run %q: %w", name, err)
	}
	info, statErr := os.Stat(name)
	switch {
	case statErr != nil && errors.Is(statErr, fs.ErrNotExist):
		return "", fmt.Errorf("cannot find %q: there is no such file (check the path)", name)
	case statErr != nil:
		return "", fmt.Errorf("cannot run %q: %w (check the permissions of its directories)", name, statErr)
	case info.IsDir():
		return "", fmt.Errorf("%q is a directory, not a program: give the server's command after --, e.g. -- node %s", name, strings.TrimSuffix(name, "/")+"/server.js")
	case info.Mode()&0o111 == 0:
		return "", fmt.Errorf("%q is not executable (its mode is %v): make it executable (chmod +x %s) or run it through its interpreter, e.g. -- sh %s", name, info.Mode().Perm(), name, name)
	}
	return "", fmt.Errorf("cannot run %q: %w", name, err)
}

// StartError says why a found program did not start, with the next step
// where one is known: a file the kernel cannot execute is a script without
// a "#!" line or a binary for another machine.
func StartError(name string, err error) error {
	switch {
	case errors.Is(err, syscall.ENOEXEC):
		return fmt.Errorf("cannot start %q: the system cannot execute it (a script without a #! line, or a program built for another machine): run it through its interpreter, e.g. -- sh %s", name, name)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("cannot start %q: permission denied (check that it and its directories are readable and executable)", name)
	}
	return fmt.Errorf("starting %s: %w", name, err)
}
