package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/inframethod/commlab/commmodel/predict"
	"github.com/inframethod/commlab/data"
	"github.com/inframethod/commlab/data/nccltests"
	"github.com/inframethod/commlab/topo"
)

// fuzzGPU is the GPU the fuzz targets name where a command needs one.
const fuzzGPU = "NVIDIA H100 80GB HBM3"

// seedRow is a table row as seedOf sees it: two integers first.
var seedRow = regexp.MustCompile(`^\s*\d+\s+\d+\s`)

// seedOf is the file at path cut to a small fuzz seed of its format: no
// "# Source:" lines, 2 Rank lines and 4 rows. Go's minimiser takes time
// quadratic in an input's length, and runs nothing new meanwhile.
func seedOf(f *testing.F, path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	var out []byte
	ranks, rows := 0, 0
	for _, line := range strings.SplitAfter(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "# Source:"):
			continue
		case strings.Contains(line, " Rank ") && strings.Contains(line, " device "):
			if ranks++; ranks > 2 {
				continue
			}
		case seedRow.MatchString(line):
			if rows++; rows > 4 {
				continue
			}
		}
		out = append(out, line...)
	}
	return out
}

// FuzzFileInputs gives the fuzz input to each reader of the command
// line's files (data.ReadMeasurements and topo.Parse, as readLog and
// readTopo call them, the -hw file's readDescription and predict.Describe,
// readCalibration) and, where a reader takes it, as a file to the
// subcommands that read it cheaply, as a log, a topology capture, a -hw
// file and a tuner rules file (tune -check, where the input holds a
// comma): whatever the file holds, nothing panics and every command ends
// with exit 0, 1 or 2. Calibration and compare, which fit the model to a
// log's tables at every input, are left to their own tests: they held the
// fuzzer to 8 executions in 60 s.
func FuzzFileInputs(f *testing.F) {
	f.Add(seedOf(f, ringLog))
	f.Add(seedOf(f, "../../data/logs/h20_2x8_allreduce_nvls_nccl1244.log"))
	f.Add(seedOf(f, "../../topo/testdata/workstation_nv4_pair.txt"))
	f.Add(seedOf(f, "../../docs/hardware/mi300x.txt"))
	f.Add([]byte("cc=9.0,links=18,link-bw=25GB/s\n"))
	f.Add([]byte("# Out of bounds values : 3 FAILED\n"))
	f.Add([]byte{0xff, 0xfe, 0, 'a'})
	f.Add([]byte("allreduce,0,65536,tree,simple,2,1,-1,-1,1\n"))
	file := filepath.Join(f.TempDir(), "in.log") // one a worker: a t.TempDir took 1.5 ms an input
	f.Fuzz(func(t *testing.T, b []byte) {
		// The readers read the bytes, as readLog and readTopo do once
		// they have read a file; each command runs where its reader takes
		// the input (on one it refuses, it prints the reader's error), on
		// the file written only then: a write took 0.8 ms.
		var runs [][]string
		if _, err := data.ReadMeasurements(bytes.NewReader(b), file, &nccltests.Options{MaxRows: maxRows}); err == nil {
			runs = append(runs, []string{"fit", file}, []string{"diagnose", file, "-gpu", fuzzGPU})
		}
		if _, _, err := topo.Parse(namedReader{bytes.NewReader(b), file}); err == nil {
			runs = append(runs, []string{"topo", file},
				[]string{"predict", "-topo", file, "-gpu", fuzzGPU, "-collective", "allreduce", "-p", "8", "-per-node", "8", "-size", "1MiB"})
		}
		hw := bytes.Contains(b, []byte("="))
		read := len(runs) > 0
		// A tuner rules file is lines of comma-separated fields: tune
		// -check reads it as the plugin does (nccl.CheckTunerRules), in
		// about 10 ms.
		if bytes.IndexByte(b, ',') >= 0 {
			runs = append(runs, []string{"tune", "-check", file, "-comms", "2x8", "-gpu", fuzzGPU})
		}
		if len(runs) == 0 && !hw {
			return
		}
		if err := os.WriteFile(file, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if read {
			if files, err := parseCalibrationFiles(file+":ranks=8:nodes=1:gpu="+fuzzGPU, predict.Pins{}, "-calibrate"); err == nil {
				readCalibration(files)
			}
		}
		if spec, _, err := readDescription(file); hw && err == nil {
			if _, err := predict.Describe(fuzzGPU, spec); err == nil {
				runs = append(runs, []string{"predict", "-hw", file, "-gpu", fuzzGPU, "-collective", "allreduce", "-p", "8", "-per-node", "8", "-size", "1MiB"})
			}
		}
		for _, args := range runs {
			if code := run(args, io.Discard, io.Discard); code < 0 || code > 2 {
				t.Errorf("%q: exit %d, want 0, 1 or 2", args, code)
			}
		}
	})
}

// FuzzCalibrateItem feeds arbitrary -calibrate values, FILE[:KEY=VALUE...]
// items split by commas, to their parser: it never panics; it refuses a
// value as a usage error (exit 2) that names -calibrate; a value it takes
// gives each file a path without the separators and counts above 0.
// Seeds: the forms docs/*.md and README.md show.
func FuzzCalibrateItem(f *testing.F) {
	for _, s := range []string{
		"all_gather_ring.log:algo=ring",
		"all_reduce_ring.log:algo=ring,all_reduce_nvls.log:algo=nvls",
		"allreduce_1rack.log:nodes=18:gpu=NVIDIA GB200",
		"bare_rows_reducescatter.log:collective=reducescatter:ranks=4:nodes=1:gpu=NVIDIA H100 80GB HBM3",
		"nccl_N10_G1.log,nccl_N10_G2.log,nccl_N10_G4.log",
		"two.log:test=1:test=0",
		"a.log:proto=^ll128:version=2.21.5:per-node=8:g=8:threads=1:graph=0",
		"a.log:nodes=1:nodes=2",
		"a.log:ranks=0",
		"a.log:algo=ring,tree",
		"a.log:nope",
		":ranks=8",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, list string) {
		files, err := parseCalibrationFiles(list, predict.Pins{}, "-calibrate")
		if err != nil {
			var fe *flagError
			if !errors.As(err, &fe) || !strings.HasPrefix(err.Error(), "-calibrate ") {
				t.Fatalf("%q: error %v (%T), want a usage error that names -calibrate", list, err, err)
			}
			return
		}
		for _, c := range files {
			p := c.pins
			if strings.ContainsAny(c.path, ",:") || p.Ranks < 0 || p.Nodes < 0 || p.PerNode < 0 || p.GPUsPerThread < 0 || p.ThreadsPerProcess < 0 {
				t.Fatalf("%q: file %q with pins %+v", list, c.path, p)
			}
			for _, k := range c.tests {
				if k < 0 {
					t.Fatalf("%q: test %d", list, k)
				}
			}
		}
	})
}

// hwSeeds are -hw descriptions of the forms the docs show.
var hwSeeds = []string{
	"cc=9.0,links=18,link-bw=25GB/s",
	"cc=9.4,fabric=infinity,links=7,link-bw=64GB/s",
	"gpus=8,fabric=nvswitch,links=18,nics=8,nic-path=PIX",
	"gpus=8,fabric=nvswitch,links=18,nics=4,nic-path=PXN",
	"nics=8,nic-bw=200Gb/s,nic-path=PIX",
	"nics=2,nic-bw=100Gb/s",
	"group=32,oversub=2",
	"system=dgx-h100",
	"system=mi300x-platform,gpus=8",
	"fabric=pcie,pcie=4",
	"nvls=false,collnet=true,pairs=true",
	"cpu=amd,net-lat=5us",
	"links=18,links=2",
	"links=-1",
	"nic-bw=fast",
}

// FuzzHwSpec feeds arbitrary -hw descriptions given on the command line
// (KEY=VALUE,...) to readDescription and predict.Describe, with and
// without a GPU: nothing panics, and a description either is refused, as
// a usage error (exit 2), or describes hardware.
func FuzzHwSpec(f *testing.F) {
	for _, s := range hwSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		if hwFile(spec) {
			return // a file's name: FuzzHwFile
		}
		desc, _, err := readDescription(spec)
		if err != nil {
			var fe *flagError
			if !errors.As(err, &fe) {
				t.Fatalf("%q: error %v (%T), want a usage error", spec, err, err)
			}
			return
		}
		for _, gpu := range []string{"", fuzzGPU} {
			if _, err := predict.Describe(gpu, desc); err != nil {
				var fe *flagError
				if err := hwError(spec, nil, &describeError{err}); !errors.As(err, &fe) {
					t.Fatalf("%q: error %v (%T), want a usage error", spec, err, err)
				}
			}
		}
	})
}

// FuzzHwFile feeds arbitrary files to -hw: nothing panics, and what the
// file holds is never a usage error (exit 1, not 2: a file's content is
// not the command line); a refused value is named at the file's line.
// Seeds: docs/hardware/mi300x.txt and the docs' descriptions as lines.
func FuzzHwFile(f *testing.F) {
	f.Add(seedOf(f, "../../docs/hardware/mi300x.txt"))
	for _, s := range hwSeeds {
		f.Add([]byte("# a host\n" + strings.ReplaceAll(s, ",", "\n") + "\n"))
	}
	f.Add([]byte(""))
	f.Add([]byte("# only a comment\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		file := filepath.Join(t.TempDir(), "hw.txt")
		if err := os.WriteFile(file, b, 0o644); err != nil {
			t.Fatal(err)
		}
		desc, kvs, err := readDescription(file)
		var fe *flagError
		if err != nil {
			if errors.As(err, &fe) {
				t.Fatalf("error %v is a usage error", err)
			}
			return
		}
		for _, gpu := range []string{"", fuzzGPU} {
			if _, err := predict.Describe(gpu, desc); err != nil {
				err := hwError(file, kvs, &describeError{err})
				if errors.As(err, &fe) {
					t.Fatalf("error %v is a usage error", err)
				}
				if !strings.Contains(err.Error(), file+":") {
					t.Fatalf("error %v does not name the file's line", err)
				}
			}
		}
	})
}
