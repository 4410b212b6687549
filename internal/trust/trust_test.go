package trust

import (
	"math"
	"testing"
	"time"
)

const day = 24 * time.Hour

func TestWeight(t *testing.T) {
	tests := []struct {
		name string
		r    Reporter
		want float64
	}{
		{"made today", Reporter{Age: time.Hour}, 0},
		{"six days old, every report upheld", Reporter{Age: 6 * day, Upheld: 50}, 0},
		{"a week old, no record", Reporter{Age: NewAccount}, 0.5},
		{"a month old, no record", Reporter{Age: Seasoned}, 1},
		{"a year old, 4 of 4 upheld", Reporter{Age: 365 * day, Upheld: 4}, 2 * 5.0 / 6},
		{"a year old, 0 of 8 upheld", Reporter{Age: 365 * day, Rejected: 8}, 2 * 1.0 / 10},
		{"two weeks old, 2 of 2 upheld", Reporter{Age: 14 * day, Upheld: 2}, 0.5 * 2 * 3.0 / 4},
	}
	for _, tt := range tests {
		if got := Weight(tt.r); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: Weight = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestFreshAccountsNeverFlag: any number of fresh accounts weighs
// nothing; five month-old accounts without a record flag, four do not;
// three reporters whose reports were all upheld four times flag.
func TestFreshAccountsNeverFlag(t *testing.T) {
	many := make([]Reporter, 10000)
	for i := range many {
		many[i] = Reporter{Age: NewAccount - time.Second, Upheld: 100}
	}
	if Flags(Sum(many)) {
		t.Error("10,000 fresh accounts flag a post")
	}
	plain := Reporter{Age: Seasoned}
	if !Flags(Sum([]Reporter{plain, plain, plain, plain, plain})) || Flags(Sum([]Reporter{plain, plain, plain, plain})) {
		t.Error("five seasoned reporters without a record must flag, four must not")
	}
	sharp := Reporter{Age: 90 * day, Upheld: 4}
	if !Flags(Sum([]Reporter{sharp, sharp, sharp})) || Flags(Sum([]Reporter{sharp, sharp})) {
		t.Error("three accurate reporters must flag, two must not")
	}
	wrong := Reporter{Age: 90 * day, Rejected: 20}
	if Flags(Sum([]Reporter{wrong, wrong, wrong, wrong, wrong, wrong, wrong, wrong, wrong, wrong})) {
		t.Error("ten reporters who are always wrong flag a post")
	}
}
