package netsim

// Stats counts what happened on one link direction since it was created
// or last Reset. Every Send is counted once in Sent, and every copy ends up
// in exactly one of Delivered, Lost, QueueDropped or in flight, so
//
//	Delivered + Lost + QueueDropped + InFlight() == Sent + Duplicated
type Stats struct {
	Sent           uint64 // calls to Send
	Delivered      uint64 // packets handed out by Receive, duplicates included
	Lost           uint64 // packets removed by random or burst loss
	Duplicated     uint64 // extra copies created by duplication
	QueueDropped   uint64 // packets refused by a full bandwidth queue
	BytesSent      uint64 // payload bytes passed to Send
	BytesDelivered uint64 // payload bytes handed out by Receive
}
