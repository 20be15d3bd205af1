package frames

import "syscall"

// SignalName is a signal as the notes of exit frames write it: "SIGTERM",
// the name a person types with kill, for the signals jig sends, passes on
// or is stopped by; any other as Go names it.
func SignalName(sig syscall.Signal) string {
	switch sig {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGKILL:
		return "SIGKILL"
	case syscall.SIGPIPE:
		return "SIGPIPE"
	}
	return sig.String()
}
