package nccl

import (
	"errors"
	"fmt"
	"strings"
)

// GPU is what the model needs of a GPU product: its compute capability and
// its NVLink ports. Compute capabilities are NVIDIA's (the CUDA GPUs table,
// developer.nvidia.com/cuda-gpus, and the CUDA C++ Programming Guide's
// table of compute capabilities). NVLink figures are the product's
// datasheet total divided over its links and two directions; link counts
// of NVSwitch boards are also what nvidia-smi topo -m prints (NV18, NV12,
// NV8) in the captures under topo/testdata/real. A zero NVLinks means a
// product without NVLink to a switch (a PCIe card, or a bridge that is
// optional).
type GPU struct {
	// Name is the product, as gpuTable spells it.
	Name string
	// CompCap is the compute capability times ten (90 for 9.0).
	CompCap int
	// NVLinks is the number of NVLink links per GPU.
	NVLinks int
	// NVLinkBW is one link's bandwidth in one direction, B/s.
	NVLinkBW float64
	// PCIeGen is the generation of the host PCIe x16 link (0 if unknown).
	PCIeGen int
}

// gpuEntry maps the words of a product name to its figures. Entries are
// tried in order and the first whose every key occurs in the name wins, so
// the longer names come first.
type gpuEntry struct {
	keys []string
	gpu  GPU
}

// gpuTable lists the products nccl-tests prints in its Rank lines. Sources
// per row:
//
//	compute capability   NVIDIA CUDA GPUs table (developer.nvidia.com/cuda-gpus)
//	V100 SXM2            Tesla V100 datasheet: NVLink 300 GB/s, 6 links (NV1/NV2 cube mesh:
//	                     topo/testdata/real/azure_nd40rs_v2_8gpu_cube_mesh.txt)
//	P100 SXM2            Tesla P100 datasheet: NVLink 160 GB/s, 4 links
//	A100 SXM4            A100 datasheet: NVLink 600 GB/s, 12 links (NV12:
//	                     topo/testdata/real/a100_nps4_glued_columns_nccltests311.txt)
//	A800 SXM4            A800 datasheet: NVLink 400 GB/s, 8 links (NV8:
//	                     topo/testdata/real/a800_nv8_two_nics_per_pair_tabs.txt)
//	H100/H200 SXM, H20   H100, H200 and H20 datasheets: NVLink 900 GB/s, 18 links (NV18:
//	                     topo/testdata/real/h100_hgx_8nic_sglang30401.txt, and the H20-3e
//	                     capture of NVIDIA/nccl-tests issue #321 in data/topology)
//	H800 SXM             H800 datasheet: NVLink 400 GB/s, 8 links
//	B200, B300, GB200,   Blackwell datasheets (HGX B200/B300, GB200/GB300 NVL72): NVLink 1.8 TB/s,
//	GB300                18 links (NV18: topo/testdata/real/b300_cx8_pxb_deepep590.txt)
//	PCIe Gen             the product's host interface in its datasheet
//
// Names are matched without regard to case, so "NVIDIA H100 80GB HBM3" and
// "NVIDIA H100 PCIe" are told apart by the words they carry.
var gpuTable = []gpuEntry{
	{[]string{"GB300"}, GPU{"GB300", 103, 18, 50e9, 6}},
	{[]string{"B300"}, GPU{"B300", 103, 18, 50e9, 6}},
	{[]string{"GB200"}, GPU{"GB200", 100, 18, 50e9, 6}},
	{[]string{"B200"}, GPU{"B200", 100, 18, 50e9, 5}},
	{[]string{"GB10"}, GPU{"GB10", 121, 0, 0, 0}},
	{[]string{"RTX PRO 6000"}, GPU{"RTX PRO 6000 Blackwell", 120, 0, 0, 5}},
	{[]string{"RTX 5090"}, GPU{"GeForce RTX 5090", 120, 0, 0, 5}},
	{[]string{"RTX 5080"}, GPU{"GeForce RTX 5080", 120, 0, 0, 5}},
	{[]string{"GH200"}, GPU{"GH200", 90, 18, 25e9, 5}},
	{[]string{"H200", "NVL"}, GPU{"H200 NVL", 90, 0, 0, 5}},
	{[]string{"H200"}, GPU{"H200 SXM", 90, 18, 25e9, 5}},
	{[]string{"H100", "PCIE"}, GPU{"H100 PCIe", 90, 0, 0, 5}},
	{[]string{"H100", "NVL"}, GPU{"H100 NVL", 90, 0, 0, 5}},
	{[]string{"H100"}, GPU{"H100 SXM", 90, 18, 25e9, 5}},
	{[]string{"H800", "PCIE"}, GPU{"H800 PCIe", 90, 0, 0, 5}},
	{[]string{"H800"}, GPU{"H800 SXM", 90, 8, 25e9, 5}},
	{[]string{"H20"}, GPU{"H20", 90, 18, 25e9, 5}},
	{[]string{"L40S"}, GPU{"L40S", 89, 0, 0, 4}},
	{[]string{"L40"}, GPU{"L40", 89, 0, 0, 4}},
	{[]string{"L20"}, GPU{"L20", 89, 0, 0, 4}},
	{[]string{"L4"}, GPU{"L4", 89, 0, 0, 4}},
	{[]string{"RTX 4090"}, GPU{"GeForce RTX 4090", 89, 0, 0, 4}},
	{[]string{"RTX 6000 ADA"}, GPU{"RTX 6000 Ada", 89, 0, 0, 4}},
	{[]string{"A800", "PCIE"}, GPU{"A800 PCIe", 80, 0, 0, 4}},
	{[]string{"A800"}, GPU{"A800 SXM4", 80, 8, 25e9, 4}},
	{[]string{"A100", "PCIE"}, GPU{"A100 PCIe", 80, 0, 0, 4}},
	{[]string{"A100"}, GPU{"A100 SXM4", 80, 12, 25e9, 4}},
	{[]string{"A30"}, GPU{"A30", 80, 0, 0, 4}},
	{[]string{"A40"}, GPU{"A40", 86, 0, 0, 4}},
	{[]string{"A10G"}, GPU{"A10G", 86, 0, 0, 4}},
	{[]string{"A10"}, GPU{"A10", 86, 0, 0, 4}},
	{[]string{"RTX A6000"}, GPU{"RTX A6000", 86, 0, 0, 4}},
	{[]string{"RTX 3090"}, GPU{"GeForce RTX 3090", 86, 0, 0, 4}},
	{[]string{"T4"}, GPU{"T4", 75, 0, 0, 3}},
	{[]string{"V100", "PCIE"}, GPU{"V100 PCIe", 70, 0, 0, 3}},
	{[]string{"V100S"}, GPU{"V100S PCIe", 70, 0, 0, 3}},
	{[]string{"V100"}, GPU{"V100 SXM2", 70, 6, 25e9, 3}},
	{[]string{"P100", "PCIE"}, GPU{"P100 PCIe", 60, 0, 0, 3}},
	{[]string{"P100"}, GPU{"P100 SXM2", 60, 4, 20e9, 3}},
}

// ErrUnknownGPU is the cause of a ParseGPU error for a name the table does
// not hold.
var ErrUnknownGPU = errors.New("unknown GPU product")

// ParseGPU maps a GPU name as nccl-tests prints it in its Rank lines ("NVIDIA
// H100 80GB HBM3", "NVIDIA A100-SXM4-80GB", "Tesla V100-SXM2-32GB",
// "NVIDIA H20", "NVIDIA GB300", "NVIDIA L40S") to the product's figures. A
// name the table does not know is an error wrapping ErrUnknownGPU: give
// the compute capability and links directly then.
func ParseGPU(name string) (GPU, error) {
	words := " " + strings.ToUpper(strings.NewReplacer("-", " ", "_", " ").Replace(name)) + " "
	for _, e := range gpuTable {
		ok := true
		for _, k := range e.keys {
			if !containsWord(words, k) {
				ok = false
				break
			}
		}
		if ok {
			return e.gpu, nil
		}
	}
	return GPU{}, fmt.Errorf("nccl: GPU %q: %w (give its compute capability and NVLink count)", name, ErrUnknownGPU)
}

// containsWord reports whether key occurs in words as whole words: words
// is padded with spaces, so " key " is the test.
func containsWord(words, key string) bool {
	return strings.Contains(words, " "+key+" ")
}
