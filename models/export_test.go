package models

// AppendEventData lets the tests compare the collector's JSON with encoding/json's.
var AppendEventData = appendEventData
