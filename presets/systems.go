package presets

import (
	"slices"
	"strings"
)

// A System is a server, node or rack of a defined build: what its maker's
// documentation (or the documentation of the site that runs it) states of
// it beyond the GPU. It is the catalog behind the system key of commlab's
// -hw (predict.Describe), from which model, crossover and simulate also
// take their links (predict.Hardware.Links). A
// zero field is one the build leaves to the buyer, or that the source does
// not state.
type System struct {
	// Name is the system's name ("dgx-h100"); a cloud instance's is its
	// instance or machine type as the provider spells it ("p5.48xlarge",
	// "a3-ultragpu-8g", "Standard_ND96isr_H100_v5"), which is how a log's
	// platform line names it (nccltests.Evidence.Platform). No two names
	// differ only in case: SystemByName takes a name in any case.
	Name string
	// GPU is its GPU as nccl.ParseGPU knows it ("H100 SXM"). For AMD
	// Instinct MI250X it is one graphics compute die (GCD), which ROCm and
	// RCCL list as a GPU of its own.
	GPU string
	// PerHost is the GPUs of one host; Domain the GPUs of one NVLink
	// domain where it spans hosts (72 for an NVL72 rack), else 0.
	PerHost, Domain int
	// Fabric is how a host's GPUs reach each other: "nvswitch"; "mesh"
	// where each pair is joined by NVLinks of its own; "infinity" for AMD
	// Instinct's Infinity Fabric; "pcie" for PCIe cards; "" where the
	// source does not say.
	Fabric string
	// PairLinks is the GPU-to-GPU links joining each pair of a host's
	// GPUs where they are joined directly and evenly (a mesh, or an
	// Infinity Fabric mesh): a GPU has PairLinks·(PerHost−1) links. 0
	// through a switch, over PCIe, or where pairs are joined unevenly.
	PairLinks int
	// NICs and NICBW are the NICs of one host for the network between
	// hosts and one NIC's line rate, B/s.
	NICs  int
	NICBW float64
	// CPU is the host CPU as NCCL tells them apart: "intel", "amd" or
	// "arm".
	CPU string
	// NICPath is the path by which NCCL's ring enters and leaves a host,
	// between a GPU and a NIC, as NCCL types it and
	// as -hw nic-path takes it ("PIX", "PXB", "P2C", "PXN", "PHB" or
	// "SYS"), where the source says where the NICs sit: "PHB" for NICs
	// behind the CPU. "" where it does not: a GH200 or GB200 host's P2C
	// is its GPU's (predict.DefaultHardware), not the system's.
	NICPath string
	// TopoFile is the NCCL_TOPO_FILE the provider's images set for every
	// job (in /etc/nccl.conf), whose PCIe tree NCCL reads in place of the
	// host's: a VM's own tree, as nvidia-smi topo -m shows it under a
	// hypervisor, is then not NCCL's, and NICPath is the file's. "" where
	// the source sets none.
	TopoFile string
	// NetLatency is the network's latency per step as a multiple of
	// NCCL's figure (its tuning model's), where a public log of the system
	// measured it, cited in Source; 0 where none did.
	NetLatency float64
	// Source cites the documentation: its name, and the address where it
	// was read.
	Source string
}

// SlingshotNICBW is one HPE Slingshot 11 NIC's line rate, B/s: 200 Gb/s
// (HPE Slingshot's 200 Gb/s endpoints; OLCF's Frontier, NERSC's Perlmutter
// and CSCS's Alps documentation, cited by the HPE systems below).
// libfabric's cxi provider drives these NICs.
const SlingshotNICBW = 200e9 / 8

// Slingshot400NICBW is one HPE Slingshot 400 NIC's line rate, B/s: 400
// Gb/s (HPE's announcement of Slingshot 400, November 2024, hpe.com).
// libfabric's cxi provider drives these NICs too, so a log that names the
// provider does not tell the two apart.
const Slingshot400NICBW = 400e9 / 8

// The provider pages several systems cite, named once.
const (
	googleA3            = "Google Cloud, Accelerator-optimized machine family, A3 machine series (cloud.google.com/compute/docs/accelerator-optimized-machines)"
	googleA2            = "Google Cloud, Accelerator-optimized machine family, A2 machine series (cloud.google.com/compute/docs/accelerator-optimized-machines)"
	googleEmeraldRapids = "Its CPU is Intel's: A3 Ultra and A4 run only on the Emerald Rapids CPU platform (Google Cloud, Create an AI-optimized Slurm cluster, limitations, docs.cloud.google.com/ai-hypercomputer/docs/create/create-slurm-cluster)"
	ociGPUShapes        = "Oracle Cloud Infrastructure, Compute Shapes, bare metal GPU shapes (docs.oracle.com/en-us/iaas/Content/Compute/References/computeshapes.htm)"
	ociJoined           = "The page does not say how the GPUs are joined"
)

// Systems are the systems the catalog holds.
var Systems = []System{
	{Name: "dgx-a100", GPU: "A100-SXM4-80GB", PerHost: 8, Fabric: "nvswitch", NICs: 8, NICBW: 200e9 / 8, CPU: "amd",
		Source: "DGX A100 user guide and datasheet: 8 A100 SXM4 with 12 NVLinks to 6 NVSwitches, 8 single-port ConnectX-6 HDR NICs of 200 Gb/s for the compute network, dual AMD Rome 7742 (docs.nvidia.com/dgx/dgxa100-user-guide)"},
	{Name: "dgx-h100", GPU: "H100 80GB HBM3", PerHost: 8, Fabric: "nvswitch", NICs: 8, NICBW: 400e9 / 8, CPU: "intel",
		Source: "DGX H100 user guide: 8 H100 SXM with 18 NVLinks to 4 NVSwitches, 8 single-port ConnectX-7 NICs of 400 Gb/s for the compute network, dual Intel Xeon Platinum 8480C (docs.nvidia.com/dgx/dgxh100-user-guide)"},
	{Name: "dgx-h200", GPU: "H200", PerHost: 8, Fabric: "nvswitch", NICs: 8, NICBW: 400e9 / 8, CPU: "intel",
		Source: "DGX BasePOD reference architecture, Core Components: DGX H200 has 8 Hopper GPUs, 4 NVSwitch chips, 4 OSFP ports serving 8 single-port ConnectX-7 of up to 400 Gb/s, dual Intel Xeon Platinum 8480C (docs.nvidia.com/dgx-basepod/reference-architecture-infrastructure-foundation-enterprise-ai/latest/core-components.html)"},
	{Name: "dgx-b200", GPU: "B200", PerHost: 8, Fabric: "nvswitch", NICs: 8, NICBW: 400e9 / 8, CPU: "intel",
		Source: "DGX B200 user guide and DGX BasePOD reference architecture, Core Components: 8 B200 with 18 NVLinks to 2 NVSwitches, 4 OSFP ports serving 8 single-port ConnectX-7 of 400 Gb/s, dual 5th generation Intel Xeon (docs.nvidia.com/dgx-basepod/reference-architecture-infrastructure-foundation-enterprise-ai/latest/core-components.html)"},
	{Name: "gb200-nvl72", GPU: "GB200", PerHost: 4, Domain: 72, Fabric: "nvswitch", NICs: 4, NICBW: 400e9 / 8, CPU: "arm",
		Source: "DGX SuperPOD GB200 reference architecture: 18 compute trays of 4 GB200 and 2 Grace CPUs, one NVLink domain of 72 through the rack's NVSwitch trays, a 400 Gb/s ConnectX-7 NIC per GPU on the NDR compute network (docs.nvidia.com/dgx-superpod/reference-architecture-scalable-infrastructure-gb200/latest/dgx-superpod-components.html)"},
	{Name: "gb300-nvl72", GPU: "GB300", PerHost: 4, Domain: 72, Fabric: "nvswitch", NICs: 4, NICBW: 800e9 / 8, CPU: "arm",
		Source: "NVIDIA Enterprise Reference Architecture, NVL72 AI Factory, System Hardware & Components: 18 compute trays of 4 Blackwell Ultra GPUs and 2 Grace CPUs, 9 NVSwitch trays joining all 72, 4 ConnectX-8 per tray, one per GPU (docs.nvidia.com/enterprise-reference-architectures/nvl72-ai-factory/latest/components.html); ConnectX-8 links at 800 Gb/s XDR (ConnectX-8 SuperNIC firmware release notes, docs.nvidia.com/networking/display/connectx8firmwarev40440208)"},
	{Name: "hgx-a100-4gpu", GPU: "A100-SXM4-80GB", PerHost: 4, Fabric: "mesh", PairLinks: 4,
		Source: "HGX A100 4-GPU: 4 A100 SXM4 joined directly, 4 NVLinks between each pair, no NVSwitch (HGX A100 datasheet); the NICs and CPU are the server's"},
	{Name: "hgx-h100-4gpu", GPU: "H100 80GB HBM3", PerHost: 4, Fabric: "mesh", PairLinks: 6,
		Source: "HGX H100 4-GPU: 4 H100 SXM joined directly, 6 NVLinks between each pair, no NVSwitch (HGX H100 datasheet); the NICs and CPU are the server's"},
	{Name: "hpe-ex254n-gh200", GPU: "GH200", PerHost: 4, Fabric: "mesh", PairLinks: 6, NICs: 4, NICBW: SlingshotNICBW, CPU: "arm",
		Source: "HPE Cray EX254n node as CSCS documents Alps: 4 GH200 joined all-to-all by 6 NVLinks a pair (150 GB/s a direction), no NVSwitch, 4 Slingshot NICs of 200 Gb/s (25 GB/s), one per GH200 (CSCS Alps hardware, GH200 node schematic, docs.cscs.ch/alps/hardware)"},
	{Name: "hpe-ex235n-a100", GPU: "A100-SXM4-40GB", PerHost: 4, Fabric: "mesh", PairLinks: 4, NICs: 4, NICBW: SlingshotNICBW, CPU: "amd",
		Source: "HPE Cray EX235n, NERSC Perlmutter's GPU node: 1 AMD EPYC 7763, 4 A100 SXM4 with 4 NVLinks between each pair, 4 HPE Slingshot 11 NICs (docs.nersc.gov/systems/perlmutter/architecture); a Slingshot 11 NIC is 200 Gb/s (HPE Slingshot's 200 Gb/s endpoints; OLCF Frontier user guide)"},
	{Name: "alcf-polaris", GPU: "A100-SXM4-40GB", PerHost: 4, Fabric: "mesh", PairLinks: 4, NICs: 2, NICBW: SlingshotNICBW, CPU: "amd", NICPath: "PHB",
		Source: "ALCF Polaris, an HPE Apollo 6500 Gen10+ node: 1 AMD EPYC Milan 7543P, 4 A100 joined by NV4 between each pair, a pair of Slingshot 11 NICs, each behind the CPU of one GPU (PHB) and across the CPU's NUMA nodes from the others (docs.alcf.anl.gov/polaris/hardware-overview/machine-overview)"},
	{Name: "hpe-ex235a-mi250x", GPU: "AMD Instinct MI250X", PerHost: 8, Fabric: "infinity", NICs: 4, NICBW: SlingshotNICBW, CPU: "amd",
		Source: "HPE Cray EX235a, OLCF Frontier's node: 1 AMD EPYC, 4 MI250X of 2 GCDs each, 8 GPUs to ROCm; 200 GB/s a direction between the 2 GCDs of a package, 50-100 GB/s between GCDs of different packages (Infinity Fabric, not an even mesh); 4 HPE Slingshot NICs of 200 Gb/s (25 GB/s), one per MI250X (Frontier user guide, docs.olcf.ornl.gov/systems/frontier_user_guide.html)"},
	{Name: "mi300x-platform", GPU: "AMD Instinct MI300X", PerHost: 8, Fabric: "infinity", PairLinks: 1,
		Source: "AMD Instinct MI300X platform: 8 MI300X OAMs, each with 7 Infinity Fabric links forming a fully connected 8-GPU system; the NICs and CPU are the server's (ROCm documentation, AMD Instinct MI300 series microarchitecture, node-level architecture, rocm.docs.amd.com/en/latest/conceptual/gpu-arch/mi300.html)"},
	{Name: "mi325x-platform", GPU: "AMD Instinct MI325X", PerHost: 8, Fabric: "infinity", PairLinks: 1,
		Source: "AMD Instinct MI325X platform, an MI300 series universal baseboard of 8 OAMs, each with 7 Infinity Fabric links forming a fully connected 8-GPU system; the NICs and CPU are the server's (ROCm documentation, AMD Instinct MI300 series microarchitecture, node-level architecture, rocm.docs.amd.com/en/latest/conceptual/gpu-arch/mi300.html)"},
	{Name: "mi355x-platform", GPU: "AMD Instinct MI355X", PerHost: 8, Fabric: "infinity", PairLinks: 1,
		Source: "AMD Instinct MI355X platform: a universal baseboard of 8 OAMs, 7 Infinity Fabric links per GPU, the 8 GPUs fully connected; the NICs and CPU are the server's (AMD's CDNA 4 presentation at Hot Chips 2025, as reported by ServeTheHome, servethehome.com/amd-mi350-and-cdna-4-architecture-launched-with-rocm-7)"},
	{Name: "p4d.24xlarge", GPU: "A100-SXM4-40GB", PerHost: 8, Fabric: "nvswitch", NICs: 4, NICBW: 100e9 / 8, CPU: "intel", NetLatency: 16,
		Source: "AWS, Specifications for Amazon EC2 accelerated computing instances, performance and network specifications (docs.aws.amazon.com/ec2/latest/instancetypes/ac.html): 8 NVIDIA A100 GPUs of 40 GiB, Intel Xeon Platinum 8175, 4x 100 Gigabit on 4 network cards with EFA; the A100s joined by NVSwitch (AWS Compute Blog, Amazon EC2 P4d instances deep dive, aws.amazon.com/blogs/compute/amazon-ec2-p4d-instances-deep-dive); NCCL sees each EFA device as a NIC, as aws-ofi-nccl's SENDRECV protocol, the p4d default (src/platform-aws.cpp), lists them; the network's latency 16 times NCCL's: an AllReduce of 8 B on 2 x 8 takes 179.1 us (aws-samples/aws-efa-eks, data/nccltests/testdata/real/a100_2x8_allreduce_efa_p4d_ncclinfo.log)"},
	{Name: "p4de.24xlarge", GPU: "A100-SXM4-80GB", PerHost: 8, NICs: 4, NICBW: 100e9 / 8, CPU: "intel", NetLatency: 16,
		Source: "AWS, Specifications for Amazon EC2 accelerated computing instances, performance and network specifications (docs.aws.amazon.com/ec2/latest/instancetypes/ac.html): 8 NVIDIA A100 GPUs of 80 GiB, Intel Xeon Platinum 8175, 4x 100 Gigabit on 4 network cards with EFA; NCCL sees each EFA device as a NIC (aws-ofi-nccl's SENDRECV protocol, the p4de default in src/platform-aws.cpp); the page does not say how the GPUs are joined; the network's latency as p4d.24xlarge's, whose network is the same"},
	{Name: "p5.48xlarge", GPU: "H100 80GB HBM3", PerHost: 8, NICs: 8, NICBW: 400e9 / 8, CPU: "amd", NetLatency: 5,
		Source: "AWS, Specifications for Amazon EC2 accelerated computing instances, performance and network specifications (docs.aws.amazon.com/ec2/latest/instancetypes/ac.html): 8 NVIDIA H100 GPUs of 80 GiB, AMD EPYC 7R13, 3200 Gigabit on 32 network cards with EFA; NCCL sees 8 NICs of 400 Gb/s, 4 EFA devices each: aws-ofi-nccl (github.com/aws/aws-ofi-nccl at 2daf7d30): its RDMA protocol, the default from P5 on (src/platform-aws.cpp), makes one NCCL device of the EFA devices nearest each GPU (nccl_ofi_topo_group, include/nccl_ofi_topo.h) and gives it the sum of their speeds (get_properties, src/nccl_ofi_rdma.cpp); the page does not say how the GPUs are joined; the network's latency 5 times NCCL's: an AllReduce of 16 to 128 B on 2 x 8 takes 68.37 to 69.29 us (aws/aws-k8s-tester pull request 585, data/nccltests/testdata/real/h100_p5_2x8_allreduce_efa_k8stester585.log)"},
	{Name: "p5e.48xlarge", GPU: "H200", PerHost: 8, NICs: 8, NICBW: 400e9 / 8, CPU: "amd",
		Source: "AWS, Specifications for Amazon EC2 accelerated computing instances, performance and network specifications (docs.aws.amazon.com/ec2/latest/instancetypes/ac.html): 8 NVIDIA H200 GPUs of 141 GiB, AMD EPYC 7R13, 3200 Gigabit on 32 network cards with EFA; NCCL sees 8 NICs of 400 Gb/s, 4 EFA devices each: aws-ofi-nccl (github.com/aws/aws-ofi-nccl at 2daf7d30): its RDMA protocol, the default from P5 on (src/platform-aws.cpp), makes one NCCL device of the EFA devices nearest each GPU (nccl_ofi_topo_group, include/nccl_ofi_topo.h) and gives it the sum of their speeds (get_properties, src/nccl_ofi_rdma.cpp); the page does not say how the GPUs are joined"},
	{Name: "p5en.48xlarge", GPU: "H200", PerHost: 8, NICs: 8, NICBW: 400e9 / 8, CPU: "intel",
		Source: "AWS, Specifications for Amazon EC2 accelerated computing instances, performance and network specifications (docs.aws.amazon.com/ec2/latest/instancetypes/ac.html): 8 NVIDIA H200 GPUs of 141 GiB, Intel Xeon Sapphire Rapids, 3200 Gigabit on 16 network cards with EFA; NCCL sees 8 NICs of 400 Gb/s, 2 EFA devices of 200 Gb/s each (aws-ofi-nccl sets 200 Gb/s a link on p5en.48xlarge, src/nccl_ofi_net.cpp): aws-ofi-nccl (github.com/aws/aws-ofi-nccl at 2daf7d30): its RDMA protocol, the default from P5 on (src/platform-aws.cpp), makes one NCCL device of the EFA devices nearest each GPU (nccl_ofi_topo_group, include/nccl_ofi_topo.h) and gives it the sum of their speeds (get_properties, src/nccl_ofi_rdma.cpp); the page does not say how the GPUs are joined"},
	{Name: "p6-b200.48xlarge", GPU: "B200", PerHost: 8, NICs: 8, NICBW: 400e9 / 8, CPU: "intel",
		Source: "AWS, Specifications for Amazon EC2 accelerated computing instances, performance and network specifications (docs.aws.amazon.com/ec2/latest/instancetypes/ac.html): 8 NVIDIA B200 GPUs of 179 GiB, Intel Xeon Emerald Rapids, 3200 Gigabit on 8 network cards with EFA, 400 Gb/s each, one NCCL device per GPU: aws-ofi-nccl (github.com/aws/aws-ofi-nccl at 2daf7d30): its RDMA protocol, the default from P5 on (src/platform-aws.cpp), makes one NCCL device of the EFA devices nearest each GPU (nccl_ofi_topo_group, include/nccl_ofi_topo.h) and gives it the sum of their speeds (get_properties, src/nccl_ofi_rdma.cpp); the page does not say how the GPUs are joined"},
	{Name: "a3-ultragpu-8g", GPU: "H200", PerHost: 8, NICs: 8, NICBW: 400e9 / 8, CPU: "intel",
		Source: "Google Cloud, Networking and GPU machines, A4 and A3 Ultra machine types (cloud.google.com/compute/docs/gpus/gpu-network-bandwidth): NVIDIA H200 141GB GPUs, 8 NVIDIA ConnectX-7 NICs for GPU-to-GPU traffic only, each aligned with one GPU, 3,200 Gbps in all (400 Gb/s each), GPUDirect RDMA through MRDMA virtual functions; 2 gVNICs add 400 Gbps for other traffic. The count and rate are the page's: how NCCL lists these NICs was not established. The page says an all-to-all NVLink bridge joins the GPUs, not whether through NVSwitch. " + googleEmeraldRapids},
	{Name: "a4-highgpu-8g", GPU: "B200", PerHost: 8, NICs: 8, NICBW: 400e9 / 8, CPU: "intel",
		Source: "Google Cloud, Networking and GPU machines, A4 and A3 Ultra machine types (cloud.google.com/compute/docs/gpus/gpu-network-bandwidth): NVIDIA B200 GPUs, 8 NVIDIA ConnectX-7 NICs for GPU-to-GPU traffic only, each aligned with one GPU, 3,200 Gbps in all (400 Gb/s each), GPUDirect RDMA through MRDMA virtual functions; 2 gVNICs add 400 Gbps for other traffic. The count and rate are the page's: how NCCL lists these NICs was not established. The page says an all-to-all NVLink bridge joins the GPUs, not whether through NVSwitch. " + googleEmeraldRapids},
	{Name: "a3-megagpu-8g", GPU: "H100 80GB HBM3", PerHost: 8, NICs: 8, CPU: "intel", NetLatency: 11,
		Source: googleA3 + ": 8 NVIDIA H100 80GB GPUs, 4th generation Intel Xeon (Sapphire Rapids), 9 physical NICs in an 8+1 arrangement, the 8 on the GPUs' PCIe bus for GPU-to-GPU traffic over GPUDirect-TCPXO, 1,800 Gbps for the VM in all; the page gives no NIC's rate, and says an all-to-all NVLink topology joins the GPUs, not whether through NVSwitch; the network's latency 11 times NCCL's, the fit of an AllReduce on 2 x 8 that takes 122.3 to 123.6 us from 16 to 256 B (github.com/lessizzmore/create-a3mega-ztan-fork, data/nccltests/testdata/real/h100_2x8_allreduce_gcp_a3mega.log)"},
	{Name: "a3-highgpu-8g", GPU: "H100 80GB HBM3", PerHost: 8, NICs: 4, CPU: "intel",
		Source: googleA3 + ": 8 NVIDIA H100 80GB GPUs, 4th generation Intel Xeon (Sapphire Rapids), 5 physical NICs in a 4+1 arrangement, the 4 on the GPUs' PCIe bus, one NIC per two GPUs, for GPU-to-GPU traffic over GPUDirect-TCPX; the page gives no NIC's rate, and says an all-to-all NVLink topology joins the GPUs, not whether through NVSwitch"},
	{Name: "a3-edgegpu-8g", GPU: "H100 80GB HBM3", PerHost: 8, NICs: 4, CPU: "intel",
		Source: googleA3 + ": 8 NVIDIA H100 80GB GPUs, 4th generation Intel Xeon (Sapphire Rapids), 5 physical NICs in a 4+1 arrangement as A3 High's, GPUDirect-TCPX, 400 Gbps for the VM in all in most regions (800 in asia-south1 and northamerica-northeast2); the page gives no NIC's rate, nor whether NVSwitch joins the GPUs"},
	{Name: "a2-ultragpu-8g", GPU: "A100-SXM4-80GB", PerHost: 8, CPU: "intel",
		Source: googleA2 + ": 8 NVIDIA A100 80GB GPUs, 600 GBps of NVLink a GPU, Intel Cascade Lake, up to 100 Gbps of egress for the VM and no GPU-to-GPU networking technology (GPUDirect); the page gives no NIC count, nor whether NVSwitch joins the GPUs"},
	{Name: "a2-highgpu-8g", GPU: "A100-SXM4-40GB", PerHost: 8, CPU: "intel",
		Source: googleA2 + ": 8 NVIDIA A100 40GB GPUs, 600 GBps of NVLink a GPU, Intel Cascade Lake, up to 100 Gbps of egress for the VM and no GPU-to-GPU networking technology (GPUDirect); the page gives no NIC count, nor whether NVSwitch joins the GPUs"},
	{Name: "Standard_ND96asr_v4", GPU: "A100-SXM4-40GB", PerHost: 8, NICs: 8, NICBW: 200e9 / 8, CPU: "amd", NICPath: "PIX", TopoFile: "/opt/microsoft/ndv4/topo.xml",
		Source: "Microsoft Azure, NDasrA100_v4 sizes series (learn.microsoft.com/azure/virtual-machines/sizes/gpu-accelerated/ndasra100v4-series): 8 NVIDIA A100 40GB GPUs with NVLink 3.0, AMD EPYC 7V12 (Rome), a dedicated HDR InfiniBand connection per GPU, GPUDirect RDMA; the page writes 200 GB/s a connection and 1.6 TB/s a VM, HDR's 200 Gb/s and 8 of them; NCCL's IB transport takes each InfiniBand port as a NIC (NCCL_IB_HCA in NCCL's Environment Variables, docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html). The page does not say how the GPUs are joined; Azure's HPC images set NCCL_TOPO_FILE=/opt/microsoft/ndv4/topo.xml in /etc/nccl.conf for every Standard_ND*v4 size (Azure/azhpc-images 8e9d055f, components/setup_sku_customizations.sh and customizations/ndv4.sh), whose PCIe tree (topology/ndv4-topo.xml) puts each GPU under one PCI bridge with its HCA: NCCL reads that tree, not the VM's, and its NIC path is PIX"},
	{Name: "Standard_ND96amsr_A100_v4", GPU: "A100-SXM4-80GB", PerHost: 8, NICs: 8, NICBW: 200e9 / 8, CPU: "amd", NICPath: "PIX", TopoFile: "/opt/microsoft/ndv4/topo.xml",
		Source: "Microsoft Azure, NDm_A100_v4 sizes series (learn.microsoft.com/azure/virtual-machines/sizes/gpu-accelerated/ndma100v4-series): 8 NVIDIA A100 80GB GPUs with NVLink 3.0, AMD EPYC 7V12 (Rome), a dedicated HDR InfiniBand connection per GPU, GPUDirect RDMA; the page writes 200 GB/s a connection and 1.6 TB/s a VM, HDR's 200 Gb/s and 8 of them; NCCL's IB transport takes each InfiniBand port as a NIC (NCCL_IB_HCA in NCCL's Environment Variables, docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html). The page does not say how the GPUs are joined; Azure's HPC images set NCCL_TOPO_FILE=/opt/microsoft/ndv4/topo.xml in /etc/nccl.conf for every Standard_ND*v4 size (Azure/azhpc-images 8e9d055f, components/setup_sku_customizations.sh and customizations/ndv4.sh), whose PCIe tree (topology/ndv4-topo.xml) puts each GPU under one PCI bridge with its HCA: NCCL reads that tree, not the VM's, and its NIC path is PIX"},
	{Name: "Standard_ND96isr_H100_v5", GPU: "H100 80GB HBM3", PerHost: 8, NICs: 8, NICBW: 400e9 / 8, CPU: "intel", NICPath: "PIX", TopoFile: "/opt/microsoft/ndv5/topo.xml",
		Source: "Microsoft Azure, ND-H100-v5 sizes series (learn.microsoft.com/azure/virtual-machines/sizes/gpu-accelerated/ndh100v5-series): 8 NVIDIA H100 GPUs of 80 GB with NVLink 4.0, Intel Xeon (Sapphire Rapids), a dedicated 400 Gbps NVIDIA Quantum-2 ConnectX-7 InfiniBand connection per GPU, 3.2 Tbps a VM, GPUDirect RDMA; NCCL's IB transport takes each InfiniBand port as a NIC (NCCL_IB_HCA in NCCL's Environment Variables, docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html). The page does not say how the GPUs are joined; Azure's HPC images set NCCL_TOPO_FILE=/opt/microsoft/ndv5/topo.xml in /etc/nccl.conf for the Standard_ND96is*_H100_v5 and H200_v5 sizes (Azure/azhpc-images 8e9d055f, components/setup_sku_customizations.sh and customizations/ndv5.sh), whose PCIe tree (topology/ndv5-topo.xml) puts each GPU under a PCI bridge of its own with its HCA: NCCL reads that tree, not the VM's, and its NIC path is PIX"},
	{Name: "Standard_ND96isr_H200_v5", GPU: "H200", PerHost: 8, NICs: 8, NICBW: 400e9 / 8, CPU: "intel", NICPath: "PIX", TopoFile: "/opt/microsoft/ndv5/topo.xml",
		Source: "Microsoft Azure, ND-H200-v5 size series (learn.microsoft.com/azure/virtual-machines/sizes/gpu-accelerated/nd-h200-v5-series): 8 NVIDIA H200 GPUs of 141 GB joined by 900 GB/s NVLink, Intel Xeon (Sapphire Rapids), a dedicated 400 Gbps NVIDIA Quantum-2 ConnectX-7 InfiniBand connection per GPU, 3.2 Tb/s a VM, GPUDirect RDMA; NCCL's IB transport takes each InfiniBand port as a NIC (NCCL_IB_HCA in NCCL's Environment Variables, docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html). The page does not say whether NVSwitch joins them; Azure's HPC images set NCCL_TOPO_FILE=/opt/microsoft/ndv5/topo.xml in /etc/nccl.conf for the Standard_ND96is*_H100_v5 and H200_v5 sizes (Azure/azhpc-images 8e9d055f, components/setup_sku_customizations.sh and customizations/ndv5.sh), whose PCIe tree (topology/ndv5-topo.xml) puts each GPU under a PCI bridge of its own with its HCA: NCCL reads that tree, not the VM's, and its NIC path is PIX"},
	{Name: "Standard_ND96isr_MI300X_v5", GPU: "AMD Instinct MI300X", PerHost: 8, Fabric: "infinity", PairLinks: 1, NICs: 8, NICBW: 400e9 / 8, CPU: "intel",
		Source: "Microsoft Azure, ND-MI300X-v5 sizes series (learn.microsoft.com/azure/virtual-machines/sizes/gpu-accelerated/ndmi300xv5-series): 8 AMD Instinct MI300X GPUs of 192 GB joined to one another by 4th-Gen Infinity Fabric links, 128 GB/s a GPU and 896 GB/s in all (7 peers, one link each, as ROCm's MI300 node-level architecture has it), 2 Intel Xeon (Sapphire Rapids), a dedicated 400 Gbps NVIDIA Quantum-2 ConnectX-7 InfiniBand connection per GPU, 3.2 Tb/s a VM, GPUDirect RDMA; RCCL's IB transport, like NCCL's, takes each InfiniBand port as a NIC (NCCL_IB_HCA in NCCL's Environment Variables, docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html)"},
	{Name: "BM.GPU4.8", GPU: "A100-SXM4-40GB", PerHost: 8, NICs: 16, NICBW: 100e9 / 8, CPU: "amd", NetLatency: 2.3,
		Source: ociGPUShapes + ": 8 NVIDIA A100 40 GB, AMD EPYC 7542, 8 x 200 Gbps RDMA; NCCL takes 16 RDMA devices, those Oracle's NCCL settings for the shape list in NCCL_IB_HCA (oracle-quickstart/oci-hpc, playbooks/roles/nccl-conf/files/bm.gpu4.8), 100 Gb/s each of the 1,600. " + ociJoined + "; the network's latency 2.3 times NCCL's, the fit of an AllReduce on 2 x 8 that takes 38.5 to 39.3 us from 16 to 128 B (oracle-quickstart/oci-hpc-oke, Running RDMA GPU workloads on OKE, data/nccltests/testdata/real/a100_2x8_allreduce_oci_oke.log)"},
	{Name: "BM.GPU.A100-v2.8", GPU: "A100-SXM4-80GB", PerHost: 8, NICs: 16, NICBW: 100e9 / 8, CPU: "amd",
		Source: ociGPUShapes + ": 8 NVIDIA A100 80 GB, AMD EPYC 7J13, 16 x 100 Gbps RDMA. " + ociJoined},
	{Name: "BM.GPU.H100.8", GPU: "H100 80GB HBM3", PerHost: 8, NICs: 16, NICBW: 200e9 / 8, CPU: "intel",
		Source: ociGPUShapes + ": 8 NVIDIA H100 80 GB, 2 Intel Sapphire Rapids 8480+, 8 x 2 x 200 Gbps RDMA, 16 RDMA devices of 200 Gb/s, those Oracle's NCCL settings for H100 shapes list in NCCL_IB_HCA (oracle-quickstart/oci-hpc, playbooks/roles/nccl-conf/files/h100). " + ociJoined},
	{Name: "BM.GPU.H200.8", GPU: "H200", PerHost: 8, NICs: 8, NICBW: 400e9 / 8, CPU: "intel",
		Source: ociGPUShapes + ": 8 NVIDIA H200 141 GB, 2 Intel Sapphire Rapids 8480+, 8 x 400 Gbps RDMA. " + ociJoined},
	{Name: "BM.GPU.B200.8", GPU: "B200", PerHost: 8, NICs: 8, NICBW: 400e9 / 8, CPU: "intel",
		Source: ociGPUShapes + ": 8 NVIDIA B200 180 GB, 2 Intel Emerald Rapids 8592+, 8 x 400 Gbps RDMA. " + ociJoined},
	{Name: "BM.GPU.MI300X.8", GPU: "AMD Instinct MI300X", PerHost: 8, NICs: 8, NICBW: 400e9 / 8, CPU: "intel",
		Source: ociGPUShapes + ": 8 AMD Instinct MI300X 192 GB, Intel Sapphire Rapids 8480+, 8 x 1 x 400 Gbps RDMA. " + ociJoined},
	{Name: "pcie-l40s-8gpu", GPU: "L40S", PerHost: 8, Fabric: "pcie",
		Source: "NVIDIA AI Enterprise reference architecture, Compute Node Hardware: PCIe Optimized 2-8-5 servers of 2 CPUs, 8 GPU cards and 5 network adapters, L40S among the GPUs they take; the GPUs reach each other over PCIe; the NICs' rate and the CPU are the server's (docs.nvidia.com/ai-enterprise/reference-architecture/latest/compute-node-hardware.html)"},
	{Name: "pcie-rtx-pro-6000-8gpu", GPU: "RTX PRO 6000 Blackwell", PerHost: 8, Fabric: "pcie",
		Source: "NVIDIA Enterprise Reference Architecture, RTX PRO AI Factory: RTX PRO Servers of RTX PRO 6000 Blackwell Server Edition cards, reaching each other over PCIe, on a rail-optimized network of BlueField-3 SuperNICs; the NICs per server and the CPU are the server's (docs.nvidia.com/enterprise-reference-architectures/rtx-pro-ai-factory/latest/networking-physical-topologies.html)"},
}

// SystemByName returns the system of that name, in any case
// ("standard_nd96isr_h100_v5" is Standard_ND96isr_H100_v5).
func SystemByName(name string) (System, bool) {
	i := slices.IndexFunc(Systems, func(s System) bool { return strings.EqualFold(s.Name, name) })
	if i < 0 {
		return System{}, false
	}
	return Systems[i], true
}

// NearSystems returns the names of the systems that name is, but for
// case and Azure's "Standard_" prefix, which its API gives every size and
// its users often leave out ("ND96asr_v4" is Standard_ND96asr_v4), for a
// name SystemByName does not know; none where no system is.
func NearSystems(name string) []string {
	bare := func(s string) string { return strings.TrimPrefix(strings.ToLower(strings.TrimSpace(s)), "standard_") }
	var out []string
	for _, s := range Systems {
		if bare(s.Name) == bare(name) {
			out = append(out, s.Name)
		}
	}
	return out
}

// SystemNames lists the systems' names, comma-separated.
func SystemNames() string {
	names := make([]string, len(Systems))
	for i, s := range Systems {
		names[i] = s.Name
	}
	return strings.Join(names, ", ")
}
