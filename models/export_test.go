package models

// AppendEventData lets the tests compare the collector's JSON with encoding/json's.
var AppendEventData = appendEventData

// AppendAuditBatch lets the tests write one group commit without the
// batcher's retries.
var AppendAuditBatch = (*Store).appendBatch
