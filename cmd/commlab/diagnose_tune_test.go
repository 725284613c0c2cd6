package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestDiagnoseTuneCommand: where diagnose advises the rule commlab tune
// writes, the tune command it gives, with the diagnosis's -calibrate,
// writes that rule over the sizes it names. The diagnosed run is the B200
// AllReduce of 2 x 8 on Lambda (b200_2x8_allreduce_lambda_1cc_dstack.log)
// with its rows of 128 to 512 KiB taken 1.6 times as long (at 1/1.6 of the
// bandwidths), calibrated on the log itself.
func TestDiagnoseTuneCommand(t *testing.T) {
	t.Parallel()
	src := "../../data/nccltests/testdata/real/b200_2x8_allreduce_lambda_1cc_dstack.log"
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		f := strings.Fields(l)
		if len(f) < 13 || strings.HasPrefix(l, "#") {
			continue
		}
		size, err := strconv.Atoi(f[0])
		if err != nil || size < 128<<10 || size > 512<<10 {
			continue
		}
		for _, k := range []int{5, 9} { // the times, then algbw and busbw, as nccl-tests prints a slower run
			for j, scale := range []float64{1.6, 1 / 1.6, 1 / 1.6} {
				v, err := strconv.ParseFloat(f[k+j], 64)
				if err != nil {
					t.Fatalf("%s:%d: %v", src, i+1, err)
				}
				f[k+j] = strconv.FormatFloat(scale*v, 'f', 2, 64)
			}
		}
		lines[i] = "  " + strings.Join(f, "  ")
	}
	slowed := filepath.Join(t.TempDir(), "slowed.log")
	if err := os.WriteFile(slowed, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	pins := ":nodes=2:per-node=8:gpu=NVIDIA B200"
	code, out, stderr := runCLI("diagnose", "-calibrate", src+pins, slowed+pins)
	if code != 0 {
		t.Fatalf("diagnose: exit %d: %s", code, stderr)
	}
	re := regexp.MustCompile(`commlab tune, given this diagnosis's -calibrate \(with each file's settings\), -hw and launch flags, with -comms (\S+) -collective (\S+) -size (\S+), writes a tuner rule of (\S+) from ([0-9]+) to ([0-9]+) B`)
	advised := re.FindAllStringSubmatch(out, -1)
	if len(advised) == 0 {
		t.Fatalf("no tune rule advised:\n%s", out)
	}
	// The file runs every call of a communicator it has no rules for on
	// one channel: the advice asks for all of the job's (red team).
	if n := strings.Count(out, "add to -comms every other communicator the job creates"); n != len(advised) {
		t.Errorf("%d of %d pieces of tune advice ask for the job's other communicators:\n%s", n, len(advised), out)
	}
	for _, a := range advised {
		code, file, stderr := runCLI("tune", "-calibrate", src+pins, "-comms", a[1], "-collective", a[2], "-size", a[3], "-o", "-")
		if code != 0 {
			t.Fatalf("tune -comms %s -collective %s -size %s: exit %d: %s", a[1], a[2], a[3], code, stderr)
		}
		want := fmt.Sprintf("#   %s on 2 x 8, %s to %s B: %s", a[2], a[5], a[6], a[4])
		if taken := takenRules(file); len(taken) != 1 || !strings.HasPrefix("#   "+taken[0], want+",") && !strings.HasPrefix("#   "+taken[0], want+" against") {
			t.Errorf("tune -size %s takes %q; diagnose advised %q", a[3], taken, want)
		}
	}
}
