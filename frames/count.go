package frames

import "strconv"

// Count says n of a noun, for a person to read: "1 tool call", "3 tool
// calls" (the plural is the noun and an s).
func Count[N ~int | ~int32 | ~int64](n N, noun string) string {
	return strconv.FormatInt(int64(n), 10) + " " + noun + Plural(n)
}

// Plural is the s a count of n puts on its noun: none for 1.
func Plural[N ~int | ~int32 | ~int64](n N) string {
	if n == 1 {
		return ""
	}
	return "s"
}
