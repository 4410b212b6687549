//go:build !unix

package ogimage

import "time"

// processCPU is not measured here.
func processCPU() time.Duration { return 0 }
