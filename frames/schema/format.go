package schema

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// formatCheck returns the check of a "format" jig asserts, or nil. Each
// check returns why a string is not of the format; other formats are
// reported as unchecked, never passed silently.
func formatCheck(name string) func(string) error {
	switch name {
	case "date-time":
		return checkDateTime
	case "date":
		return checkDate
	case "time":
		return checkTime
	case "duration":
		return checkDuration
	case "period":
		return checkPeriod
	case "email":
		return checkEmail
	case "hostname":
		return checkHostname
	case "ipv4":
		return checkIPv4
	case "ipv6":
		return checkIPv6
	case "uri":
		return checkURI
	case "iri":
		return checkURI
	case "uri-reference":
		return checkURIReference
	case "iri-reference":
		return checkURIReference
	case "uri-template":
		return checkURITemplate
	case "uuid":
		return checkUUID
	case "json-pointer":
		return checkJSONPointer
	case "relative-json-pointer":
		return checkRelativeJSONPointer
	case "regex":
		return checkRegex
	case "semver":
		return checkSemver
	}
	return nil
}

func reason(format string, a ...any) error { return fmt.Errorf(format, a...) }

func twoDigits(s string) (int, bool) {
	if len(s) != 2 || s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9' {
		return 0, false
	}
	return int(s[0]-'0')*10 + int(s[1]-'0'), true
}

// checkDate: RFC 3339 full-date, YYYY-MM-DD, a day that exists.
func checkDate(s string) error {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' || !allDigits(s[:4]) || !allDigits(s[5:7]) || !allDigits(s[8:]) {
		return reason("want YYYY-MM-DD")
	}
	m, _ := twoDigits(s[5:7])
	d, _ := twoDigits(s[8:])
	y, _ := strconv.Atoi(s[:4])
	if m < 1 || m > 12 {
		return reason("month %02d out of range", m)
	}
	if last := time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day(); d < 1 || d > last {
		return reason("day %02d out of range", d)
	}
	return nil
}

// checkTime: RFC 3339 full-time, hh:mm:ss[.frac](Z|±hh:mm). A leap second
// (:60) is only valid at 23:59 UTC.
func checkTime(s string) error {
	if len(s) < 9 || s[2] != ':' || s[5] != ':' {
		return reason("want hh:mm:ss followed by Z or an offset")
	}
	h, ok1 := twoDigits(s[:2])
	m, ok2 := twoDigits(s[3:5])
	sec, ok3 := twoDigits(s[6:8])
	if !ok1 || !ok2 || !ok3 {
		return reason("want hh:mm:ss followed by Z or an offset")
	}
	if h > 23 || m > 59 || sec > 60 {
		return reason("hour, minute or second out of range")
	}
	rest := s[8:]
	if strings.HasPrefix(rest, ".") {
		n := 1
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		if n == 1 {
			return reason("a fraction of a second needs digits")
		}
		rest = rest[n:]
	}
	offset := 0 // minutes east of UTC
	switch {
	case rest == "Z" || rest == "z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		oh, ok1 := twoDigits(rest[1:3])
		om, ok2 := twoDigits(rest[4:])
		if !ok1 || !ok2 || oh > 23 || om > 59 {
			return reason("offset %s out of range", rest)
		}
		offset = oh*60 + om
		if rest[0] == '-' {
			offset = -offset
		}
	default:
		return reason("want Z or an offset like +01:00 after the time")
	}
	if sec == 60 {
		utc := ((h*60+m-offset)%1440 + 1440) % 1440
		if utc != 23*60+59 {
			return reason("a leap second is only valid at 23:59:60 UTC")
		}
	}
	return nil
}

// checkDateTime: RFC 3339 date-time, e.g. 2025-06-01T10:00:00Z.
func checkDateTime(s string) error {
	const want = "want RFC 3339, e.g. 2025-06-01T10:00:00Z"
	if len(s) < 20 || (s[10] != 'T' && s[10] != 't') {
		return reason(want)
	}
	if err := checkDate(s[:10]); err != nil {
		return reason("date: %v (%s)", err, want)
	}
	if err := checkTime(s[11:]); err != nil {
		return reason("time: %v (%s)", err, want)
	}
	return nil
}

// checkDuration: RFC 3339 appendix A (ISO 8601): P1Y2M3DT4H5M6S, P2W.
func checkDuration(s string) error {
	const want = "want an ISO 8601 duration like P1DT2H or P2W"
	rest, ok := strings.CutPrefix(s, "P")
	if !ok || rest == "" {
		return reason(want)
	}
	if w, ok := strings.CutSuffix(rest, "W"); ok {
		if w == "" || !allDigits(w) {
			return reason(want)
		}
		return nil
	}
	date, tm, hasT := strings.Cut(rest, "T")
	if hasT && tm == "" {
		return reason("nothing after T (%s)", want)
	}
	if !durationPart(date, "YMD") || !durationPart(tm, "HMS") {
		return reason(want)
	}
	return nil
}

// durationPart checks a run of number-unit pairs whose units appear in
// order from units, each at most once.
func durationPart(s, units string) bool {
	for s != "" {
		n := 0
		for n < len(s) && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		if n == 0 || n == len(s) {
			return false
		}
		i := strings.IndexByte(units, s[n])
		if i < 0 {
			return false
		}
		units, s = units[i+1:], s[n+1:]
	}
	return true
}

// checkPeriod: an ISO 8601 interval of date-times and durations:
// start/end, start/duration or duration/end.
func checkPeriod(s string) error {
	start, end, ok := strings.Cut(s, "/")
	if !ok {
		return reason("want start/end, start/duration or duration/end")
	}
	sd, ed := strings.HasPrefix(start, "P"), strings.HasPrefix(end, "P")
	if sd && ed {
		return reason("start and end cannot both be durations")
	}
	for _, part := range []struct {
		v   string
		dur bool
	}{{start, sd}, {end, ed}} {
		check := checkDateTime
		if part.dur {
			check = checkDuration
		}
		if err := check(part.v); err != nil {
			return reason("%q: %v", part.v, err)
		}
	}
	return nil
}

const emailSpecials = ".!#$%&'*+-/=?^_`{|}~"

// checkEmail: RFC 5321 mailbox: a dot-atom or quoted local part of at most
// 64 bytes, @, and a hostname or a bracketed IPv4 or IPv6:... address.
func checkEmail(s string) error {
	if len(s) > 254 {
		return reason("longer than 254 characters")
	}
	at := strings.LastIndexByte(s, '@')
	if at < 0 {
		return reason("no @")
	}
	local, domain := s[:at], s[at+1:]
	if len(local) > 64 {
		return reason("the part before @ is longer than 64 characters")
	}
	if len(local) >= 2 && local[0] == '"' && local[len(local)-1] == '"' {
		if strings.ContainsAny(local[1:len(local)-1], `"\`) {
			return reason(`a quoted local part cannot hold " or \`)
		}
	} else {
		if local == "" {
			return reason("nothing before @")
		}
		for _, atom := range strings.Split(local, ".") {
			if atom == "" {
				return reason("the part before @ has an empty dot-separated piece")
			}
			for _, c := range atom {
				if !isAlnum(c) && (c == '.' || !strings.ContainsRune(emailSpecials, c)) {
					return reason("%q is not allowed before @", c)
				}
			}
		}
	}
	if ip, ok := strings.CutPrefix(domain, "["); ok {
		ip, ok = strings.CutSuffix(ip, "]")
		if !ok {
			return reason("unclosed [ in the domain")
		}
		if v6, ok := strings.CutPrefix(ip, "IPv6:"); ok {
			if err := checkIPv6(v6); err != nil {
				return reason("domain: %v", err)
			}
			return nil
		}
		if err := checkIPv4(ip); err != nil {
			return reason("domain: %v", err)
		}
		return nil
	}
	if err := checkHostname(domain); err != nil {
		return reason("domain: %v", err)
	}
	return nil
}

func isAlnum(c rune) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// checkHostname: RFC 1123 labels of letters, digits and hyphens, 1 to 63
// characters each and not starting or ending with a hyphen, 253 in all; a
// final dot is allowed.
func checkHostname(s string) error {
	s = strings.TrimSuffix(s, ".")
	if len(s) > 253 {
		return reason("longer than 253 characters")
	}
	for _, label := range strings.Split(s, ".") {
		if label == "" || len(label) > 63 {
			return reason("each dot-separated label needs 1 to 63 characters")
		}
		if label[0] == '-' || label[len(label)-1] == '-' {
			return reason("label %q starts or ends with a hyphen", label)
		}
		for _, c := range label {
			if !isAlnum(c) && c != '-' {
				return reason("%q is not allowed in a hostname", c)
			}
		}
	}
	return nil
}

// checkIPv4: four decimal numbers 0-255 without leading zeros.
func checkIPv4(s string) error {
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return reason("want four numbers separated by dots")
	}
	for _, p := range parts {
		if p == "" || len(p) > 3 || !allDigits(p) {
			return reason("%q is not a number from 0 to 255", p)
		}
		if len(p) > 1 && p[0] == '0' {
			return reason("%q has a leading zero", p)
		}
		if n, _ := strconv.Atoi(p); n > 255 {
			return reason("%q is not a number from 0 to 255", p)
		}
	}
	return nil
}

// checkIPv6: RFC 4291 text form, without a zone.
func checkIPv6(s string) error {
	if !strings.Contains(s, ":") {
		return reason("no colon")
	}
	if strings.Contains(s, "%") {
		return reason("a zone (%%...) is not part of an address")
	}
	if _, err := netip.ParseAddr(s); err != nil {
		return errors.New(strings.TrimPrefix(err.Error(), "ParseAddr("+strconv.Quote(s)+"): "))
	}
	return nil
}

// parseURI parses s as a URI reference, with the IPv6 host checks that
// net/url leaves out.
func parseURI(s string) (*url.URL, error) {
	if strings.Contains(s, `\`) {
		return nil, reason(`\ is not allowed`)
	}
	u, err := url.Parse(s)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, err
	}
	if host := u.Hostname(); strings.Contains(host, ":") {
		if !strings.HasPrefix(u.Host, "[") {
			return nil, reason("an IPv6 host needs brackets")
		}
		if err := checkIPv6(host); err != nil {
			return nil, reason("host: %v", err)
		}
	}
	return u, nil
}

func checkURI(s string) error {
	u, err := parseURI(s)
	if err != nil {
		return err
	}
	if u.Scheme == "" {
		return reason("no scheme (want an absolute URI like https://host/path)")
	}
	return nil
}

func checkURIReference(s string) error {
	_, err := parseURI(s)
	return err
}

// checkURITemplate: RFC 6570: a URI reference whose {expressions} are
// closed and not nested.
func checkURITemplate(s string) error {
	open := false
	for _, c := range s {
		switch c {
		case '{':
			if open {
				return reason("{ inside an expression")
			}
			open = true
		case '}':
			if !open {
				return reason("} without {")
			}
			open = false
		}
	}
	if open {
		return reason("unclosed {")
	}
	_, err := parseURI(s)
	return err
}

// checkUUID: RFC 9562 text form, 8-4-4-4-12 hex digits.
func checkUUID(s string) error {
	const want = "want 8-4-4-4-12 hex digits"
	if len(s) != 36 {
		return reason(want)
	}
	for i, c := range s {
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return reason(want)
			}
		default:
			if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
				return reason(want)
			}
		}
	}
	return nil
}

// checkJSONPointer: RFC 6901: empty, or /-separated tokens in which ~ is
// always followed by 0 or 1.
func checkJSONPointer(s string) error {
	if s == "" {
		return nil
	}
	if s[0] != '/' {
		return reason("a JSON Pointer starts with /")
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '~' && (i+1 == len(s) || (s[i+1] != '0' && s[i+1] != '1')) {
			return reason("~ must be followed by 0 or 1")
		}
	}
	return nil
}

// checkRelativeJSONPointer: a non-negative integer without leading zeros,
// then # or a JSON Pointer.
func checkRelativeJSONPointer(s string) error {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n == 0 {
		return reason("want a non-negative integer first")
	}
	if n > 1 && s[0] == '0' {
		return reason("the integer has a leading zero")
	}
	if s[n:] == "#" {
		return nil
	}
	return checkJSONPointer(s[n:])
}

func checkRegex(s string) error {
	if _, err := regexp.Compile(s); err != nil {
		return errors.New(strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	return nil
}

// checkSemver: semver.org 2.0.0: MAJOR.MINOR.PATCH[-pre][+build].
func checkSemver(s string) error {
	core, build, hasBuild := strings.Cut(s, "+")
	if hasBuild && !identifiers(build, false) {
		return reason("bad build metadata %q", build)
	}
	core, pre, hasPre := strings.Cut(core, "-")
	if hasPre && !identifiers(pre, true) {
		return reason("bad pre-release %q", pre)
	}
	nums := strings.Split(core, ".")
	if len(nums) != 3 {
		return reason("want MAJOR.MINOR.PATCH")
	}
	for _, n := range nums {
		if n == "" || !allDigits(n) || (len(n) > 1 && n[0] == '0') {
			return reason("%q is not a number without leading zeros", n)
		}
	}
	return nil
}

// identifiers checks dot-separated semver identifiers: [0-9A-Za-z-]+, and
// for pre-releases, numeric ones without leading zeros.
func identifiers(s string, numericNoZero bool) bool {
	for _, id := range strings.Split(s, ".") {
		if id == "" {
			return false
		}
		numeric := true
		for _, c := range id {
			if !isAlnum(c) && c != '-' {
				return false
			}
			if c < '0' || c > '9' {
				numeric = false
			}
		}
		if numericNoZero && numeric && len(id) > 1 && id[0] == '0' {
			return false
		}
	}
	return true
}
