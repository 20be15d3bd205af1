package demo

import (
	"cmp"
	"slices"
	"time"
)

// An order is one row of the demo's order book. Totals are kept in cents so
// that sums are exact; they become numbers with two decimals on the wire.
type order struct {
	id       string
	customer string
	status   string
	cents    int64
	placedAt string // RFC 3339, UTC
}

func (o order) placed() time.Time {
	t, err := time.Parse(time.RFC3339, o.placedAt)
	if err != nil {
		panic("demo: bad placedAt in the order book: " + o.placedAt)
	}
	return t
}

func (o order) total() float64 { return float64(o.cents) / 100 }

// statuses lists the order statuses of release 1 in the order reports use.
var statuses = []string{"pending", "shipped", "delivered", "cancelled"}

// orderBook is the fixed data set every session sees, oldest first.
// Acme Corp has 24 orders on or after 2026-01-01, more than search_orders'
// cap of 20, so the seed story's widened call comes back truncated.
// ord-1035 is placed on 2026-01-01 itself, to pin down that since is inclusive.
var orderBook = []order{
	{"ord-1001", "Globex", "delivered", 43195, "2025-02-26T11:02:00Z"},
	{"ord-1002", "Initech", "cancelled", 295092, "2025-03-03T17:13:00Z"},
	{"ord-1003", "Globex", "delivered", 416212, "2025-03-08T11:05:00Z"},
	{"ord-1004", "Hooli", "cancelled", 166994, "2025-03-10T09:32:00Z"},
	{"ord-1005", "Globex", "delivered", 367035, "2025-03-17T14:26:00Z"},
	{"ord-1006", "Initech", "delivered", 314120, "2025-04-02T17:19:00Z"},
	{"ord-1007", "Acme Corp", "delivered", 306532, "2025-04-14T10:05:00Z"},
	{"ord-1008", "Umbrella Ltd", "cancelled", 241682, "2025-05-04T11:05:00Z"},
	{"ord-1009", "Initech", "delivered", 442885, "2025-05-08T13:06:00Z"},
	{"ord-1010", "Acme Corp", "delivered", 144025, "2025-07-02T15:40:00Z"},
	{"ord-1011", "Umbrella Ltd", "delivered", 367950, "2025-07-04T11:50:00Z"},
	{"ord-1012", "Globex", "delivered", 36578, "2025-07-16T10:25:00Z"},
	{"ord-1013", "Hooli", "delivered", 385838, "2025-07-26T10:59:00Z"},
	{"ord-1014", "Globex", "delivered", 164823, "2025-08-07T17:03:00Z"},
	{"ord-1015", "Initech", "delivered", 305510, "2025-09-03T10:34:00Z"},
	{"ord-1016", "Hooli", "delivered", 433425, "2025-09-03T10:48:00Z"},
	{"ord-1017", "Umbrella Ltd", "delivered", 151710, "2025-09-18T12:38:00Z"},
	{"ord-1018", "Acme Corp", "delivered", 204765, "2025-09-23T11:12:00Z"},
	{"ord-1019", "Hooli", "delivered", 184430, "2025-10-09T14:02:00Z"},
	{"ord-1020", "Umbrella Ltd", "delivered", 244561, "2025-10-12T13:46:00Z"},
	{"ord-1021", "Initech", "delivered", 90605, "2025-10-13T16:27:00Z"},
	{"ord-1022", "Globex", "delivered", 63891, "2025-10-18T11:02:00Z"},
	{"ord-1023", "Initech", "delivered", 33409, "2025-11-08T09:36:00Z"},
	{"ord-1024", "Globex", "delivered", 405275, "2025-11-10T14:03:00Z"},
	{"ord-1025", "Initech", "delivered", 70311, "2025-11-13T10:18:00Z"},
	{"ord-1026", "Initech", "delivered", 132321, "2025-11-14T10:06:00Z"},
	{"ord-1027", "Globex", "delivered", 207470, "2025-11-17T09:14:00Z"},
	{"ord-1028", "Acme Corp", "cancelled", 262812, "2025-11-18T09:55:00Z"},
	{"ord-1029", "Umbrella Ltd", "delivered", 89723, "2025-11-22T12:33:00Z"},
	{"ord-1030", "Globex", "delivered", 213077, "2025-11-23T17:25:00Z"},
	{"ord-1031", "Initech", "delivered", 148167, "2025-11-25T17:40:00Z"},
	{"ord-1032", "Umbrella Ltd", "delivered", 432038, "2025-11-27T15:23:00Z"},
	{"ord-1033", "Globex", "delivered", 455476, "2025-12-20T17:03:00Z"},
	{"ord-1034", "Globex", "delivered", 148472, "2025-12-31T08:04:00Z"},
	{"ord-1035", "Acme Corp", "delivered", 220234, "2026-01-01T08:00:00Z"},
	{"ord-1036", "Acme Corp", "delivered", 360443, "2026-01-05T13:17:00Z"},
	{"ord-1037", "Acme Corp", "delivered", 123480, "2026-01-07T09:34:00Z"},
	{"ord-1038", "Acme Corp", "delivered", 46007, "2026-01-11T14:51:00Z"},
	{"ord-1039", "Acme Corp", "delivered", 81823, "2026-01-13T10:08:00Z"},
	{"ord-1040", "Acme Corp", "delivered", 347752, "2026-01-17T15:25:00Z"},
	{"ord-1041", "Acme Corp", "delivered", 8824, "2026-01-19T11:42:00Z"},
	{"ord-1042", "Acme Corp", "cancelled", 438232, "2026-01-23T16:59:00Z"},
	{"ord-1043", "Acme Corp", "delivered", 140254, "2026-01-25T12:16:00Z"},
	{"ord-1044", "Acme Corp", "shipped", 4646, "2026-01-29T08:33:00Z"},
	{"ord-1045", "Acme Corp", "delivered", 222148, "2026-01-31T13:50:00Z"},
	{"ord-1046", "Acme Corp", "shipped", 322217, "2026-02-04T09:07:00Z"},
	{"ord-1047", "Acme Corp", "shipped", 68293, "2026-02-06T14:24:00Z"},
	{"ord-1048", "Acme Corp", "delivered", 241912, "2026-02-10T10:41:00Z"},
	{"ord-1049", "Acme Corp", "cancelled", 211203, "2026-02-12T15:58:00Z"},
	{"ord-1050", "Acme Corp", "cancelled", 209132, "2026-02-16T11:15:00Z"},
	{"ord-1051", "Acme Corp", "delivered", 254956, "2026-02-18T16:32:00Z"},
	{"ord-1052", "Acme Corp", "cancelled", 35135, "2026-02-22T12:49:00Z"},
	{"ord-1053", "Acme Corp", "delivered", 37809, "2026-02-24T08:06:00Z"},
	{"ord-1054", "Acme Corp", "pending", 233515, "2026-02-28T13:23:00Z"},
	{"ord-1055", "Acme Corp", "pending", 60134, "2026-03-02T09:40:00Z"},
	{"ord-1056", "Initech", "shipped", 317454, "2026-03-05T13:29:00Z"},
	{"ord-1057", "Acme Corp", "pending", 56176, "2026-03-06T14:57:00Z"},
	{"ord-1058", "Acme Corp", "pending", 299657, "2026-03-08T10:14:00Z"},
	{"ord-1059", "Acme Corp", "pending", 283842, "2026-03-12T15:31:00Z"},
	{"ord-1060", "Globex", "pending", 193136, "2026-03-28T16:06:00Z"},
}

// findOrder returns the order with the given id.
func findOrder(id string) (order, bool) {
	i := slices.IndexFunc(orderBook, func(o order) bool { return o.id == id })
	if i < 0 {
		return order{}, false
	}
	return orderBook[i], true
}

// newestFirst returns the orders that match keep, newest first.
func newestFirst(keep func(order) bool) []order {
	var out []order
	for _, o := range orderBook {
		if keep(o) {
			out = append(out, o)
		}
	}
	slices.SortStableFunc(out, func(a, b order) int { return cmp.Compare(b.placedAt, a.placedAt) })
	return out
}
