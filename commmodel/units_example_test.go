package commmodel_test

import (
	"fmt"

	"github.com/inframethod/commlab/commmodel"
)

// b is a bit and B a byte, in sizes and bandwidths alike; a size in bits
// must come to whole bytes.
func ExampleParseSize() {
	for _, s := range []string{"64KiB", "64KB", "8Gb", "12b", "56kb"} {
		n, err := commmodel.ParseSize(s)
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
	bw, _ := commmodel.ParseBandwidth("400Gb/s") // a 400G NIC's line rate
	fmt.Println(bw, commmodel.FormatBandwidth(bw))
	// Output: 5e+10 50 GB/s
}

// Every formatter keeps three significant digits.
func ExampleFormatSize() {
	fmt.Println(commmodel.FormatSize(56e3), commmodel.FormatDuration(4.409e-3), commmodel.FormatBandwidth(272e9), commmodel.FormatTimePerByte(1e-11))
	// Output: 54.7 KiB 4.41 ms 272 GB/s 0.01 ns/B
}
