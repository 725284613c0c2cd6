package units_test

import (
	"fmt"

	"github.com/inframethod/commlab/units"
)

// b is a bit and B a byte, in sizes and bandwidths alike; a size in bits
// must come to whole bytes.
func ExampleParseSize() {
	for _, s := range []string{"64KiB", "64KB", "8Gb", "12b", "56kb"} {
		n, err := units.ParseSize(s)
		fmt.Println(n, err)
	}
	// Output:
	// 65536 <nil>
	// 64000 <nil>
	// 1000000000 <nil>
	// 0 size "12b": 1.5 B is not a whole number of bytes
	// 0 size "56kb": "kb" is ambiguous: write KB (bytes), KiB (binary bytes) or Kb (bits) (units are case-sensitive; b is a bit)
}

func ExampleParseBandwidth() {
	bw, _ := units.ParseBandwidth("400Gb/s") // a 400G NIC's line rate
	fmt.Println(bw, units.FormatBandwidth(bw))
	// Output: 5e+10 50 GB/s
}

// Every formatter keeps three significant digits.
func ExampleFormatSize() {
	fmt.Println(units.FormatSize(56e3), units.FormatDuration(4.409e-3), units.FormatBandwidth(272e9), units.FormatTimePerByte(1e-11))
	// Output: 54.7 KiB 4.41 ms 272 GB/s 0.01 ns/B
}
