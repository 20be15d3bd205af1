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

// orderBook is the fixed data set every session sees, in id order.
//
// It is built so that both calls of the seed transcript come out as the
// transcript says, and each argument changed alone shows why:
//
//   - Acme Corp has 24 orders on or after 2026-01-01, more than
//     search_orders' cap of 20 (and than the default limit of 10), so a real
//     since gives a truncated result whatever the limit;
//   - "acme" (lower case) is another account: a reseller whose orders were
//     imported from its own shop after the rest of the book, so its ids
//     (ord-1061 on) come after ord-1060 while its dates interleave with Acme
//     Corp's. It has 24 orders on or after 2026-01-01, the newest on
//     2026-02-17, so the widened call {"customer":"acme","since":"2026-01-01",
//     "limit":500} returns twenty orders of the wrong account, truncated, and
//     none from the last few weeks, which is what the agent then reported;
//   - ord-1035 is placed on 2026-01-01 itself, to pin down that since is
//     inclusive.
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
	{"ord-1061", "acme", "delivered", 60383, "2025-12-04T10:00:00Z"},
	{"ord-1062", "acme", "delivered", 54377, "2025-12-18T15:20:00Z"},
	{"ord-1063", "acme", "shipped", 39919, "2026-01-03T09:50:00Z"},
	{"ord-1064", "acme", "delivered", 23919, "2026-01-04T10:32:00Z"},
	{"ord-1065", "acme", "delivered", 61929, "2026-01-06T12:25:00Z"},
	{"ord-1066", "acme", "delivered", 59003, "2026-01-09T14:33:00Z"},
	{"ord-1067", "acme", "cancelled", 40975, "2026-01-10T13:37:00Z"},
	{"ord-1068", "acme", "delivered", 41911, "2026-01-12T11:38:00Z"},
	{"ord-1069", "acme", "delivered", 7441, "2026-01-15T13:06:00Z"},
	{"ord-1070", "acme", "delivered", 11629, "2026-01-16T13:26:00Z"},
	{"ord-1071", "acme", "cancelled", 28921, "2026-01-18T14:17:00Z"},
	{"ord-1072", "acme", "delivered", 42299, "2026-01-21T10:49:00Z"},
	{"ord-1073", "acme", "delivered", 56629, "2026-01-22T14:57:00Z"},
	{"ord-1074", "acme", "delivered", 14778, "2026-01-24T13:01:00Z"},
	{"ord-1075", "acme", "cancelled", 62182, "2026-01-27T12:56:00Z"},
	{"ord-1076", "acme", "delivered", 10212, "2026-01-28T10:58:00Z"},
	{"ord-1077", "acme", "shipped", 62935, "2026-01-30T12:07:00Z"},
	{"ord-1078", "acme", "delivered", 67795, "2026-02-02T16:24:00Z"},
	{"ord-1079", "acme", "delivered", 60643, "2026-02-03T10:51:00Z"},
	{"ord-1080", "acme", "delivered", 87542, "2026-02-05T10:26:00Z"},
	{"ord-1081", "acme", "delivered", 3612, "2026-02-08T09:06:00Z"},
	{"ord-1082", "acme", "delivered", 24460, "2026-02-09T15:48:00Z"},
	{"ord-1083", "acme", "delivered", 58749, "2026-02-11T15:28:00Z"},
	{"ord-1084", "acme", "shipped", 86559, "2026-02-14T13:36:00Z"},
	{"ord-1085", "acme", "shipped", 37518, "2026-02-15T11:50:00Z"},
	{"ord-1086", "acme", "delivered", 11379, "2026-02-17T15:14:00Z"},
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
