package heldout_test

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/commmodel/predict"
	"github.com/inframethod/commlab/commmodel/predict/heldout"
)

// publicDir holds the public logs of machines outside the paired set, each
// file citing its source in its first lines.
const publicDir = "../../../data/nccltests/testdata/real"

// A publicLog is one log of a public machine, read with what its user
// knows and its log may not print: the nodes and GPUs a node of the run,
// the GPU as its page names it, and an NCCL_PROTO the run set.
type publicLog struct {
	file string
	pins predict.Pins
}

// A publicMachine is one hardware configuration of the public logs with
// two tables or more.
type publicMachine struct {
	name string
	logs []publicLog
}

// publicMachines are the machines of data/nccltests/testdata/real with
// more than one table of one configuration. Logs of one site's machines of
// one build are one machine; logs of another transport (the L40S pods'
// sockets run beside their RoCE run) or another machine (Alps' and Olivia's
// GH200 nodes, Azure's NC48 and NC96 A100 v4 VMs of 2 and 4 GPUs, AMD's
// AAC8 and AAC10 MI300X clusters excepted, whose one- and two-node runs
// are the one pair of tables of an MI300X build across nodes) are not.
var publicMachines = []publicMachine{
	// msccl#48's AllToAlls of 2 and 8 nodes print no Rank lines; the
	// issue gives the nodes of 8 A100s and names no other.
	{"a100-msccl48", []publicLog{
		{"a100_2x8_alltoall_msccl48.log", predict.Pins{Nodes: 2, PerNode: 8, GPU: "A100"}},
		{"a100_8x8_alltoall_msccl48.log", predict.Pins{Nodes: 8, PerNode: 8, GPU: "A100"}},
	}},
	// The NC A100 v4 post's logs print no header or Rank lines; its
	// nvidia-smi cuts the GPU's name to "NVIDIA A100 80G..." at a 300 W
	// cap, the PCIe card's, which the VM's user reads whole. Run with and
	// without NCCL_GRAPH_FILE, which the model does not read.
	{"a100-pcie-azure-nc48-1x2", []publicLog{
		{"a100_1x2_allreduce_graphfile_azure_ncv4.log", predict.Pins{Nodes: 1, PerNode: 2, GPU: "NVIDIA A100 80GB PCIe"}},
		{"a100_1x2_allreduce_topofile_azure_ncv4.log", predict.Pins{Nodes: 1, PerNode: 2, GPU: "NVIDIA A100 80GB PCIe"}},
	}},
	{"a100-pcie-azure-nc96-1x4", []publicLog{
		{"a100_1x4_allreduce_graphfile_azure_ncv4.log", predict.Pins{Nodes: 1, PerNode: 4, GPU: "NVIDIA A100 80GB PCIe"}},
		{"a100_1x4_allreduce_topofile_azure_ncv4.log", predict.Pins{Nodes: 1, PerNode: 4, GPU: "NVIDIA A100 80GB PCIe"}},
	}},
	{"a100-polaris-slingshot", []publicLog{
		{"a100_1x4_allreduce_polaris_ss11.log", predict.Pins{Nodes: 1, PerNode: 4, GPU: "A100-SXM4-40GB"}},
		{"a100_4x4_allreduce_simple_polaris_ss11.log", predict.Pins{Nodes: 4, PerNode: 4, GPU: "A100-SXM4-40GB", Proto: "Simple"}},
		{"a100_4x4_allgather_stalled_polaris_ss11.log", predict.Pins{Nodes: 4, PerNode: 4, GPU: "A100-SXM4-40GB", Proto: "Simple"}},
	}},
	// Oracle Japan's OCI tutorial: one node of BM.GPU4.8 and two over the
	// RoCE cluster network, one 10 GiB row each; the Rank lines give the
	// rest (the 2-node run shares the 1-node run's host).
	{"a100-oci-bm-gpu48-roce", []publicLog{
		{"a100_1x8_allreduce_oci_gpu48_ubuntu.log", predict.Pins{}},
		{"a100_2x8_allreduce_oci_gpu48_ubuntu.log", predict.Pins{}},
	}},
	// Another version of the same tutorials' GPU cluster page: two other
	// BM.GPU4.8 nodes in the horovod container (its NCCL), one of them
	// alone (-g 8) and both; another cluster and build than the Ubuntu
	// page's, so not one machine with it.
	{"a100-oci-bm-gpu48-horovod", []publicLog{
		{"a100_1x8_g8_allreduce_oci_gpu48_horovod.log", predict.Pins{}},
		{"a100_2x8_allreduce_oci_gpu48_horovod.log", predict.Pins{}},
	}},
	{"a100-superbench-1x8", []publicLog{
		{"a100_1x8_g8_allgather_oldcolumns_superbench.log", predict.Pins{}},
		{"a100_1x8_g8_alltoall_oldcolumns_superbench.log", predict.Pins{}},
	}},
	{"b200-gke-a4-gpupedia", []publicLog{
		{"b200_1x8_g8_allreduce_gke_a4.log", predict.Pins{Nodes: 1, PerNode: 8}},
		{"b200_2x8_allreduce_gke_a4.log", predict.Pins{Nodes: 2, PerNode: 8}},
	}},
	// MGHPCC's AICR cluster (mghpcc/aicr-benchmarks): one process a node
	// driving its 8 B200 (-g 8), 1 node and 2 over 8 NDR400 rails a node,
	// five collectives each; the Rank lines give the rest. Its 2-node
	// pair's rails run at about half rate when GPUDirect RDMA goes both
	// ways (the repository's diagnosis), which no log says. Its SHARP A/B
	// jobs (other node pairs: 2 x 8 and 2 x 2 GPUs) ran each AllReduce
	// with CollNet off (NCCL's choice) and forced, pinned as the job set
	// it (NCCL_ALGO=CollNetChain,CollNetDirect, NCCL_PROTO=Simple; the logs
	// print neither): a run of CollNet alone had CollNet set up, and is
	// modelled with it. One node's sweep of 2 to 8 GPUs (-g N) is seven
	// tables of one file.
	{"b200-aicr-ndr", []publicLog{
		{"b200_1x8_g8_five_collectives_aicr_mghpcc.log", predict.Pins{}},
		{"b200_2x8_g8_five_collectives_aicr_mghpcc.log", predict.Pins{}},
		{"b200_2x8_g8_allreduce_sharp_off_aicr_mghpcc.log", predict.Pins{}},
		{"b200_2x2_g2_allreduce_sharp_off_aicr_mghpcc.log", predict.Pins{}},
		{"b200_2x8_g8_allreduce_collnet_sharp_aicr_mghpcc.log", predict.Pins{Algo: "CollNetChain,CollNetDirect", Proto: "Simple"}},
		{"b200_2x2_g2_allreduce_collnet_sharp_aicr_mghpcc.log", predict.Pins{Algo: "CollNetChain,CollNetDirect", Proto: "Simple"}},
		{"b200_1x2to8_allreduce_sweep_aicr_mghpcc.log", predict.Pins{}},
	}},
	// Google Cloud's A4 pages: an AllGather of 2 GKE A4 nodes (the A4 tab of
	// its custom-GKE page; no NCCL version) and of 2 A4 Compute Engine VMs
	// (its test-vms page; NCCL 2.25.1), both by the gIB package's
	// run_nccl_tests.sh, the rows alone. Taken as one machine, the A4 shape
	// of one provider's guides; the runs' clusters and builds may differ,
	// which the logs do not say. The GKE page's A4 manifest gives 8 B200 a
	// node (nvidia-b200, nvidia.com/gpu: 8).
	{"b200-gcp-a4-docs", []publicLog{
		{"b200_2x8_allgather_gke_gcpa4.log", predict.Pins{Nodes: 2, PerNode: 8, GPU: "NVIDIA B200"}},
		{"b200_2x8_allgather_vm_gcpa4.log", predict.Pins{Nodes: 2, PerNode: 8, GPU: "NVIDIA B200"}},
	}},
	{"b200-gke-a4-dranet", []publicLog{
		{"b200_2x1_allgather_gke_a4_dranet.log", predict.Pins{}},
		{"b200_2x8_allgather_gke_a4_dranet.log", predict.Pins{}},
	}},
	// DraNet's two H200 guides (the same repository's GKE RDMA demo and
	// its MPI Operator page, both of May 2025): 2 pods on 2 GKE H200 nodes,
	// each pod of 1 GPU and 1 RDMA NIC with GKE's gIB NCCL, an AllGather and
	// an AllReduce. Taken as one machine, one site's nodes of one build;
	// the AllReduce prints no NCCL version, so that the builds match is
	// the guides' setup, not the logs'.
	{"h200-gke-dranet-1gpu1nic", []publicLog{
		{"h200_2x1_allgather_gke_dranet_demo.log", predict.Pins{}},
		{"h200_2x1_allreduce_gke_dranet_mpijob.log", predict.Pins{}},
	}},
	// Together's B200 cluster (DGX Cloud, 8 ConnectX-7 NICs of 400 Gb/s
	// a node): SendRecv sweeps (each rank to rank+1) of one study on 2, 4,
	// 8, 16, 32 and 64 nodes of 8 GPUs. The 16- to 64-node logs keep Rank
	// lines 0-7 and the last, so the user gives their nodes.
	{"b200-together-sendrecv", []publicLog{
		{"b200_2x8_sendrecv_together_dgxc.log", predict.Pins{}},
		{"b200_4x8_sendrecv_together_dgxc.log", predict.Pins{}},
		{"b200_8x8_sendrecv_together_dgxc.log", predict.Pins{}},
		{"b200_16x8_sendrecv_together_dgxc.log", predict.Pins{Nodes: 16, PerNode: 8}},
		{"b200_32x8_sendrecv_together_dgxc.log", predict.Pins{Nodes: 32, PerNode: 8}},
		{"b200_64x8_sendrecv_together_dgxc.log", predict.Pins{Nodes: 64, PerNode: 8}},
	}},
	// OCI's GB200 NVL72 racks (oci-hpc-oke): 2 hosts of one rack over
	// multi-node NVLink, whose log prints no header or Rank lines (the page
	// names the shape, BM.GPU.GB200.4: 4 GB200 a host), and 32 hosts of two
	// racks, whose log keeps only the last Rank line.
	{"gb200-oci-oke", []publicLog{
		{"gb200_2x4_allreduce_mnnvl_oci_oke.log", predict.Pins{Nodes: 2, PerNode: 4, GPU: "NVIDIA GB200"}},
		{"gb200_32x4_allreduce_two_racks_oci_oke.log", predict.Pins{Nodes: 32, PerNode: 4}},
	}},
	// Google Cloud's A4X page (AI Hypercomputer's NCCL guides): an
	// AllGather of "two A4X nodes" and its TAS JobSet within one NVLink
	// domain sub-block, whose rows give 32 ranks; the blocks print the rows
	// alone, and the page's manifests give 4 GB200 a node (nvidia-gb200,
	// nvidia.com/gpu: 4), so 8 nodes for the 32 ranks.
	{"gb200-gcp-a4x", []publicLog{
		{"gb200_2x4_allgather_gcpa4x.log", predict.Pins{Nodes: 2, PerNode: 4, GPU: "NVIDIA GB200"}},
		{"gb200_8x4_allgather_gcpa4x.log", predict.Pins{Nodes: 8, PerNode: 4, GPU: "NVIDIA GB200"}},
	}},
	// Its A4X Max page: an AllGather of 2 nodes of 4 GB300, which its Rank
	// lines print and which the page says crossed NVLink domains over RDMA,
	// and a JobSet of NUM_NODES = 2, whose Rank lines the page replaces by
	// "..." and whose placement it does not give; neither placement is a
	// fact a user gives commlab (-hw domain=N is not pinned here).
	{"gb300-gcp-a4xmax", []publicLog{
		{"gb300_2x4_allgather_crossdomain_gcpa4xmax.log", predict.Pins{}},
		{"gb300_2x4_allgather_jobset_gcpa4xmax.log", predict.Pins{Nodes: 2, PerNode: 4, GPU: "NVIDIA GB300"}},
	}},
	{"gh200-alps-slingshot", []publicLog{
		{"gh200_2x1_allreduce_slingshot_alps_sarus.log", predict.Pins{}},
		{"gh200_2x4_allreduce_slingshot_alps.log", predict.Pins{}},
		{"gh200_2x4_allreduce_cxi_container_alps.log", predict.Pins{}},
	}},
	{"gh200-olivia-slingshot", []publicLog{
		{"gh200_2x4_allreduce_slingshot_olivia.log", predict.Pins{}},
		{"gh200_4x4_allreduce_wrong_rows_olivia.log", predict.Pins{}},
	}},
	// AWS p5.48xlarge over EFA: KeitaW's two EKS runs print their Rank
	// lines; awsome-distributed-training's README prints the rows alone of
	// a Slurm run (8 B..16 GiB) and an EKS run (0 B..2 GiB), and names the
	// instance, whose 8 GPUs the catalog gives (presets.Systems), and for
	// the EKS run NCCL 2.18.5 (its later revision's build arguments).
	{"h100-p5-efa", []publicLog{
		{"h100_2x8_allreduce_tagoutput_split_rows_p5.log", predict.Pins{}},
		{"h100_2x8_allreduce_p5_tuner_plugin.log", predict.Pins{}},
		{"h100_2x8_allreduce_efa_p5_slurm_awsome.log", predict.Pins{Nodes: 2, PerNode: 8, GPU: "NVIDIA H100 80GB HBM3"}},
		{"h100_2x8_allreduce_efa_p5_eks_awsome.log", predict.Pins{Nodes: 2, PerNode: 8, GPU: "NVIDIA H100 80GB HBM3", Version: nccl.Version{Major: 2, Minor: 18, Patch: 5}}},
	}},
	// xxrjun/nccl-tests-cluster's example-cluster00, a 17-node H100
	// cluster: the pairwise runs of one pair of its nodes at 1, 4 and 8
	// ranks a node, each an AllToAll and a SendRecv of 32 MiB..16 GiB; the
	// Rank lines give the rest. The repository names no NIC.
	{"h100-cluster00-pairwise", []publicLog{
		{"h100_2x1_alltoall_sendrecv_xxrjun_cluster00.log", predict.Pins{}},
		{"h100_2x4_alltoall_sendrecv_xxrjun_cluster00.log", predict.Pins{}},
		{"h100_2x8_alltoall_sendrecv_xxrjun_cluster00.log", predict.Pins{}},
	}},
	// gj-aion's cluster of nccl-tests#309 on 2, 4 and 8 of its 8 nodes. The
	// 2-node Ring run set NCCL_ALGO=Ring (its command line; the log does
	// not print it), with NCCL_MIN_CTAS=24 as the 8-node minctas24 run.
	{"h100-8x8-nccltests309", []publicLog{
		{"h100_8x8_allreduce_default_nccltests309.log", predict.Pins{}},
		{"h100_8x8_allreduce_minctas24_nccltests309.log", predict.Pins{}},
		{"h100_2x8_allreduce_default_nccltests309.log", predict.Pins{}},
		{"h100_4x8_allreduce_default_nccltests309.log", predict.Pins{}},
		{"h100_2x8_allreduce_ring_minctas24_nccltests309.log", predict.Pins{Algo: "ring"}},
	}},
	// nccl-tests#319's 2 Supermicro HGX H100 hosts on DOCA host drivers:
	// defaults, and NCCL_ALGO=RING, which its NCCL INFO lines print.
	{"h100-hgx-doca-nccltests319", []publicLog{
		{"h100_2x8_allreduce_default_doca_nccltests319.log", predict.Pins{}},
		{"h100_2x8_allreduce_ring_ncclinfo_doca_nccltests319.log", predict.Pins{}},
	}},
	// nccl-tests#380's 2 H200 hosts of 4 NICs each, bare metal and as
	// passthrough VMs (as qoofyk's below); the posts print the rows alone,
	// and the description gives the hosts' 8 H200s and the 16 ranks.
	{"h200-4nic-nccltests380", []publicLog{
		{"h200_2x8_allreduce_4nic_baremetal_nccltests380.log", predict.Pins{Nodes: 2, PerNode: 8, GPU: "NVIDIA H200"}},
		{"h200_2x8_allreduce_4nic_vm_nccltests380.log", predict.Pins{Nodes: 2, PerNode: 8, GPU: "NVIDIA H200"}},
	}},
	// SkyPilot's GKE A3 Ultra guide: two AllGathers of the same 2 x 8
	// H200 (GPUDirect-RDMA) nodes, one launched by SkyPilot, one from
	// Google's own test pods; their Rank lines print the GPU and the shape.
	{"h200-gke-a3ultra-skypilot", []publicLog{
		{"h200_2x8_allgather_gke_a3ultra_skypilot.log", predict.Pins{}},
		{"h200_2x8_allgather_gke_a3ultra_gibpods_skypilot.log", predict.Pins{}},
	}},
	// qoofyk's Dell XE9680 hosts of nccl-tests#309: 2 bare-metal hosts, and
	// 4 as VMs on the same hardware (its command's VM topology file).
	{"h100-hgx-qoofyk-nccltests309", []publicLog{
		{"h100_2x8_allreduce_baremetal_qoofyk_nccltests309.log", predict.Pins{}},
		{"h100_4x8_allreduce_vm_qoofyk_nccltests309.log", predict.Pins{}},
	}},
	// Voltage Park's cluster: 4 x 8 and one process driving 8 GPUs of one
	// node (-g 8), which the logs print. Its Reduce is left out: the model
	// predicts no Reduce.
	// NREL's Kestrel (NREL/ESIFHPC4's GPU-GPU collective test): 16 nodes of
	// 4 H100 SXM over Slingshot 11 (two 200 Gb/s NICs a node), an
	// AllReduce and two AllGather runs, the rows alone; the README gives
	// 64 GPUs across 16 nodes, NREL's system page the GPU, and the folder's
	// build script NCCL 2.21.5.
	{"h100-kestrel-slingshot", []publicLog{
		{"h100_16x4_allreduce_slingshot_kestrel.log", predict.Pins{Nodes: 16, PerNode: 4, GPU: "NVIDIA H100 SXM", Version: nccl.Version{Major: 2, Minor: 21, Patch: 5}}},
		{"h100_16x4_allgather_slingshot_kestrel.log", predict.Pins{Nodes: 16, PerNode: 4, GPU: "NVIDIA H100 SXM", Version: nccl.Version{Major: 2, Minor: 21, Patch: 5}}},
		{"h100_16x4_allgather_to128m_slingshot_kestrel.log", predict.Pins{Nodes: 16, PerNode: 4, GPU: "NVIDIA H100 SXM", Version: nccl.Version{Major: 2, Minor: 21, Patch: 5}}},
	}},
	{"h100-voltagepark-4x8", []publicLog{
		{"h100_4x8_allreduce_voltagepark.log", predict.Pins{}},
		{"h100_4x8_allgather_voltagepark.log", predict.Pins{}},
		{"h100_4x8_broadcast_voltagepark.log", predict.Pins{}},
		{"h100_1x8_g8_allreduce_voltagepark.log", predict.Pins{}},
		{"h100_1x8_g8_allgather_voltagepark.log", predict.Pins{}},
		{"h100_1x8_g8_broadcast_voltagepark.log", predict.Pins{}},
	}},
	// AMD's Core42 MI210 hosts (mhilgema-amd/proj), 8 a host with 4 RoCE
	// ports: 2 hosts under NCCL_ALGO=Ring and NCCL_PROTO=Simple (its
	// wrapper script; the log does not print them), and the first host
	// alone, with those settings and RCCL_ENABLE_INTRANET, and with the
	// tuner's choice and NCCL_DEBUG's lines. All three set NCCL_MIN and
	// MAX_NCHANNELS=12, the 1-host runs NCCL_RINGS, which the model does
	// not read. The catalog does not know the MI210: the machine is what
	// the tables print.
	{"mi210-core42-roce", []publicLog{
		{"mi210_1x8_allreduce_ncclinfo_core42.log", predict.Pins{}},
		{"mi210_1x8_allreduce_ring_simple_intranet_core42.log", predict.Pins{Algo: "ring", Proto: "Simple"}},
		{"mi210_2x8_allreduce_ring_simple_core42.log", predict.Pins{Algo: "ring", Proto: "Simple"}},
	}},
	{"mi300x-amd-aac", []publicLog{
		{"mi300x_1x8_2x8_allreduce_rccltests.log", predict.Pins{}},
	}},
	{"mi300x-rocm-blogs", []publicLog{
		{"mi300x_1x8_allreduce_rocmblogs.log", predict.Pins{}},
		// Run with -G 1, as its page's command line says; the header it shows prints graph: 0.
		{"mi300x_1x8_allreduce_graph1_rocmblogs.log", predict.Pins{Layout: predict.Layout{Graphs: 1}}},
	}},
	// OCI's BM.GPU.MI300X.8 (8 RDMA rails of RoCE a node) under the Slinky
	// Slurm operator on OKE, two nodes each: the oci-hpc-oke guide's
	// example, whose Rank lines print no GPU name and only ranks 0, 7, 8
	// and 15, and a later test log of OguzPastirmaci/gce-hackathon (RCCL
	// 2.27.7), the rows alone; both AllReduce over 1 to 16 GiB, and the
	// pages name the shape.
	{"mi300x-oci-oke-roce", []publicLog{
		{"mi300x_2x8_allreduce_oci_oke_slurm.log", predict.Pins{Nodes: 2, PerNode: 8, GPU: "AMD Instinct MI300X"}},
		{"mi300x_2x8_allreduce_oci_oke_slinky.log", predict.Pins{Nodes: 2, PerNode: 8, GPU: "AMD Instinct MI300X"}},
	}},
	// AMD's AAC11 MI325X cluster on 1, 2, 4 and 8 of one job's nodes, 8
	// Broadcom RoCE ports each, NCCL_ALGO=Ring (its script's command line);
	// the README keeps the 4 to 16 GiB rows alone, and its section title
	// names the GPU.
	{"mi325x-aac11-roce", []publicLog{
		{"mi325x_1x8_allreduce_ring_aac11.log", predict.Pins{Nodes: 1, PerNode: 8, GPU: "AMD Instinct MI325X", Algo: "ring"}},
		{"mi325x_2x8_allreduce_ring_aac11.log", predict.Pins{Nodes: 2, PerNode: 8, GPU: "AMD Instinct MI325X", Algo: "ring"}},
		{"mi325x_4x8_allreduce_ring_aac11.log", predict.Pins{Nodes: 4, PerNode: 8, GPU: "AMD Instinct MI325X", Algo: "ring"}},
		{"mi325x_8x8_allreduce_ring_aac11.log", predict.Pins{Nodes: 8, PerNode: 8, GPU: "AMD Instinct MI325X", Algo: "ring"}},
	}},
	// AMD's MI350X bring-up notes: one host of 8, rccl-tests as one
	// process driving the 8 (-g 8) and as 8 MPI processes; the Rank lines
	// print the GPU and the shape.
	{"mi350x-ihc-1x8", []publicLog{
		{"mi350x_1x8_g8_allreduce_ihc_smci350.log", predict.Pins{}},
		{"mi350x_1x8_allreduce_mpirun_ihc_smci350.log", predict.Pins{}},
	}},
	{"mi355x-oci-1x8", []publicLog{
		{"mi355x_1x8_allreduce_alltoall_trimmed.log", predict.Pins{}},
	}},
	// OCI's MI355X shape with Pollara 400 NICs: AllReduce and AllToAll on
	// 1, 2 and 4 nodes, each cut to its 8 and 16 GiB rows with no header
	// or Rank lines; the page names the GPU and its headings the nodes.
	{"mi355x-oci-pollara", []publicLog{
		{"mi355x_1x8_allreduce_pollara_oci.log", predict.Pins{Nodes: 1, PerNode: 8, GPU: "AMD Instinct MI355X"}},
		{"mi355x_1x8_alltoall_pollara_oci.log", predict.Pins{Nodes: 1, PerNode: 8, GPU: "AMD Instinct MI355X"}},
		{"mi355x_2x8_allreduce_pollara_oci.log", predict.Pins{Nodes: 2, PerNode: 8, GPU: "AMD Instinct MI355X"}},
		{"mi355x_2x8_alltoall_pollara_oci.log", predict.Pins{Nodes: 2, PerNode: 8, GPU: "AMD Instinct MI355X"}},
		{"mi355x_4x8_allreduce_pollara_oci.log", predict.Pins{Nodes: 4, PerNode: 8, GPU: "AMD Instinct MI355X"}},
		{"mi355x_4x8_alltoall_pollara_oci.log", predict.Pins{Nodes: 4, PerNode: 8, GPU: "AMD Instinct MI355X"}},
	}},
	{"radeon-aion-1x8", []publicLog{
		{"radeon_1x8_g8_allreduce_aion.log", predict.Pins{}},
		{"radeon_1x8_g8_alltoall_aion.log", predict.Pins{}},
	}},
	// ROCm/ROCm#5571's two hosts of one Radeon AI PRO R9700 each, with
	// NCCL_DMABUF_ENABLE=1 and with NCCL_NET_GDR_LEVEL=LOC: one machine, as
	// the maintainer answered that the R9700 (gfx12) had no GPU Direct RDMA
	// in that ROCm, so both ran the same path. The catalog does not know
	// the GPU: the machine is what the tables print.
	{"r9700-rocm5571-2x1", []publicLog{
		{"r9700_2x1_allreduce_dmabuf_rocm5571.log", predict.Pins{}},
		{"r9700_2x1_allreduce_gdrloc_rocm5571.log", predict.Pins{}},
	}},
	// The "5K Pro" and RTX 6000D hosts of jianxiongzhang/nccl_test (PCIe,
	// NCCL_P2P_LEVEL=PHB, Spectrum-X plugin), AllReduce and AllToAll of the
	// same settings; the 5K Pro's Rank lines print "NVIDIA Graphics Device".
	{"rtx5kpro-cx8-pcie", []publicLog{
		{"rtx5kpro_2x8_allreduce_late2025.log", predict.Pins{}},
		{"rtx5kpro_2x8_alltoall_late2025.log", predict.Pins{}},
	}},
	{"rtx6000d-cx8-pcie", []publicLog{
		{"rtx6000d_2x8_allreduce_late2025.log", predict.Pins{}},
		{"rtx6000d_2x8_alltoall_late2025.log", predict.Pins{}},
	}},
	{"rtx4090-kalavai-pcie", []publicLog{
		{"rtx4090_1x2_g2_allreduce_docker_kalavai.log", predict.Pins{}},
		{"rtx4090_1x4_g4_allreduce_docker_kalavai.log", predict.Pins{}},
		{"rtx4090_1x2_g2_allreduce_k8s_kalavai.log", predict.Pins{}},
		{"rtx4090_1x4_g4_allreduce_k8s_kalavai.log", predict.Pins{}},
	}},
	// gnosia93/slurm-on-aws: AWS g7e.8xlarge nodes of one RTX PRO 6000
	// Blackwell Server Edition and one 100 Gbps EFA NIC, 2 and 8 nodes of
	// one rank each; the Rank lines and NCCL INFO lines give the shape and
	// NCCL 2.29.2, and the INFO lines say the aws-ofi-nccl plugin set
	// NCCL_PROTO=simple (GDR not supported), which a user of the run pins.
	{"rtxpro6000-g7e-efa", []publicLog{
		{"rtxpro6000_2x1_allreduce_efa_g7e_slurm.log", predict.Pins{Proto: "Simple"}},
		{"rtxpro6000_8x1_allreduce_efa_g7e_slurm.log", predict.Pins{Proto: "Simple"}},
	}},
	// nccl-tests#78's comment of 8 nodes of 8 V100 on 100 Gb/s InfiniBand:
	// an AllReduce and an AllToAll of 2 rows each, the rows alone; the
	// comment gives the nodes and the GPU's family, not which V100.
	{"v100-ib100-nccltests78", []publicLog{
		{"v100_8x8_allreduce_ib100_nccltests78.log", predict.Pins{Nodes: 8, PerNode: 8, GPU: "V100"}},
		{"v100_8x8_alltoall_ib100_nccltests78.log", predict.Pins{Nodes: 8, PerNode: 8, GPU: "V100"}},
	}},
	// The p3dn gists print the rows alone; their titles give the nodes of
	// p3dn.24xlarge, whose 8 GPUs are Tesla V100-SXM2-32GB.
	{"v100-p3dn-efa", []publicLog{
		{"v100_2x8_allreduce_efa_p3dn_gist2019.log", predict.Pins{Nodes: 2, PerNode: 8, GPU: "Tesla V100-SXM2-32GB"}},
		{"v100_4x8_allreduce_efa_p3dn_gist2019.log", predict.Pins{Nodes: 4, PerNode: 8, GPU: "Tesla V100-SXM2-32GB"}},
		{"v100_8x8_allreduce_efa_p3dn_gist2019.log", predict.Pins{Nodes: 8, PerNode: 8, GPU: "Tesla V100-SXM2-32GB"}},
	}},
}

// publicSingles are the other logs of data/nccltests/testdata/real, one
// machine each, but for those of the paired machines (the DGX-2's, GB300's
// and nccl-tests#290's H100s): scored from the GPU's name alone with the
// publicMachines' (TestPublicFromName). A log that prints no GPU name or
// no shape is given its page's; a GPU its page does not name is left out
// (bottlerocket313's EFA AllToAll, nccl-tests#128's ReduceScatter), as
// is a run whose page names neither the collective nor the ranks' layout
// beyond a few rows (aws-k8s-tester#585's, nccl#652's).
var publicSingles = []publicLog{
	{"a100_1x2_sendrecv_leonardo_nccltests331.log", predict.Pins{}},
	{"a100_1x4_g4_allreduce_stanage.log", predict.Pins{}},
	{"a100_2x8_allreduce_efa_p4d_ncclinfo.log", predict.Pins{}},
	// awsome-distributed-training's README: 2 p4de.24xlarge (8
	// A100-SXM4-80GB and 4 x 100 Gbps EFA each, another GPU than the p4d's
	// above), the rows alone.
	{"a100_2x8_allreduce_efa_p4de_slurm_awsome.log", predict.Pins{Nodes: 2, PerNode: 8, GPU: "A100-SXM4-80GB"}},
	// nccl#527's 4 p4dn.24xlarge (8 A100-SXM4-40GB each, EFA, NCCL 2.9.9
	// with NCCL_COLLNET_ENABLE=1): the rows of 64 B to 128 KiB alone, the
	// instances and their count in the post.
	{"a100_4x8_allreduce_efa_p4dn_nccl527.log", predict.Pins{Nodes: 4, PerNode: 8, GPU: "A100-SXM4-40GB"}},
	{"a100_2x8_allreduce_oci_oke.log", predict.Pins{}},
	{"a100_2x8_allreduce_oci_oke_readme.log", predict.Pins{}},
	// Its Rank lines list only ranks 0, 7, 8 and 15; the guide runs two
	// BM.GPU.B4.8 hosts of 8 under the Slurm operator.
	{"a100_2x8_allreduce_oci_oke_slurm_operator.log", predict.Pins{Nodes: 2, PerNode: 8}},
	{"a100_4x2_allreduce_collnet_kisti_nccltests311.log", predict.Pins{}},
	// Its post names the VMs, Standard_ND96amsr_A100_v4, whose GPU the
	// catalog gives (presets.Systems), and prints no Rank lines.
	{"a100_2x8_allreduce_azure_ndmv4_aks.log", predict.Pins{Nodes: 2, PerNode: 8, GPU: "A100-SXM4-80GB"}},
	// aks-rdma-infiniband's expected outputs print the rows alone; its
	// tests run two Standard_ND96asr_v4 VMs (tests/README.md), whose GPU
	// the catalog gives (A100-SXM4-40GB, presets.Systems), 8 ranks a VM.
	// One over SR-IOV InfiniBand, one over IPoIB sockets: another
	// transport, so not one machine (as the L40S pods' runs).
	// ABCI's SHARP page: a Compute Node (A) pair, the paired set's
	// a100-sxm4-abci-ib4xhdr hardware, kept here for its other build (NCCL
	// with SHARP's CollNet, NCCL_COLLNET_ENABLE=1, which the log, its SHARP
	// lines cut, does not show, and a new user does not give with
	// -hw collnet=true). Its Rank lines give the rest.
	{"a100_2x8_allreduce_collnet_sharp_abci.log", predict.Pins{}},
	// CoreWeave's first README: an MPIJob of 16 workers of 8
	// A100-SXM4-80GB on its LAS1 InfiniBand cluster (the job's manifest:
	// 16 replicas, slotsPerWorker 8, -np 128), whose Rank lines stop at rank
	// 4 and so give no node count; the user gives the job's shape.
	{"a100_16x8_allreduce_coreweave_las1.log", predict.Pins{Nodes: 16, PerNode: 8}},
	// NERSC Perlmutter (sparticlesteve/podman-nccl-testing): 2 HPE EX235n
	// nodes of 4 A100-SXM4-40GB and 4 Slingshot 11 NICs, NCCL_DEBUG=INFO;
	// the Rank lines give the rest. Another system than Polaris' (2 NICs
	// a node), so not one machine with it.
	{"a100_2x4_allreduce_ncclinfo_perlmutter_ss11.log", predict.Pins{}},
	// dstack's first Crusoe page prints the rows alone: its task asks for
	// A100:8 on 2 nodes and reads Crusoe's a100-80gb-sxm-ib topology file
	// (A100 80GB SXM VMs on InfiniBand, 8 HCAs given).
	{"a100_2x8_allreduce_crusoe_dstack.log", predict.Pins{Nodes: 2, PerNode: 8, GPU: "A100-SXM4-80GB"}},
	// LUMI's early-access MI100s: the Rank lines print the GPU's PCI
	// device name, "Device 738c", which the catalog reads.
	{"mi100_2x1_allreduce_lumi_eap.log", predict.Pins{}},
	{"a100_2x8_allreduce_azure_ndasrv4_aks_sriov_ib.log", predict.Pins{Nodes: 2, PerNode: 8, GPU: "A100-SXM4-40GB"}},
	{"a100_2x8_allreduce_azure_ndasrv4_aks_ipoib_sockets.log", predict.Pins{Nodes: 2, PerNode: 8, GPU: "A100-SXM4-40GB"}},
	// "two nodes, both of which have 8 A100 80GB gpus", one GPU of each run.
	{"a100_2x1_allreduce_smallsizes_nccltests150.log", predict.Pins{Nodes: 2, PerNode: 1, GPU: "A100 80GB"}},
	{"a40_2x1_sendrecv_nccltests214.log", predict.Pins{}},
	// Crusoe's cluster check: 2 VMs of 4 GB200, the Rank lines give the
	// rest; another cluster than OCI's, so not one machine with it.
	{"gb200_2x4_g4_allreduce_crusoe_vms.log", predict.Pins{}},
	{"gh200_2x1_allreduce_wrong_rows_nccltests369.log", predict.Pins{}},
	// HPE's hpc-ai-envs README: the rows alone of 2 nodes of 4 GPUs over
	// Slingshot (the page's shape) run with NCCL_ALGO=Tree; the page names
	// no GPU, its repository's EX4000 configurations GH200. Another site's
	// nodes than Alps' or Olivia's, so not one machine with theirs.
	{"gh200_2x4_allreduce_tree_slingshot_hpe_aienvs.log", predict.Pins{Nodes: 2, PerNode: 4, GPU: "GH200", Algo: "Tree"}},
	{"h100_2x8_allreduce_gcp_a3mega.log", predict.Pins{}},
	// cluster-toolkit's GKE guides print the rows alone: AllGathers of 2
	// nodes (their manifests' default) of the a3-megagpu-8g, a3-highgpu-8g
	// and a3-ultragpu-8g shapes, whose GPUs the catalog gives
	// (presets.Systems); the pages name the H100s of the first two, and the
	// A3 Ultra machine type of the third. The Mega table is another
	// cluster's than the A3 Mega AllReduce above, so not one machine with it.
	{"h100_2x8_allgather_gke_a3mega_clustertoolkit.log", predict.Pins{Nodes: 2, PerNode: 8, GPU: "H100 80GB HBM3"}},
	{"h100_2x8_allgather_gke_a3high_tcpx.log", predict.Pins{Nodes: 2, PerNode: 8, GPU: "H100 80GB HBM3"}},
	{"h200_2x8_allgather_gke_a3ultra_dws.log", predict.Pins{Nodes: 2, PerNode: 8, GPU: "H200"}},
	// Google Cloud's custom-GKE page, its A3 Ultra tab: an AllGather of 2
	// A3 Ultra nodes, the rows alone; the page's A3 Ultra manifest selects
	// 8 nvidia-h200-141gb a node. Google's run, not SkyPilot's, whose
	// cluster the pages do not tie to it: not one machine with it.
	{"h200_2x8_allgather_twonode_gcpa3u.log", predict.Pins{Nodes: 2, PerNode: 8, GPU: "NVIDIA H200"}},
	// dstack's cluster guides print the rows alone: AllReduces of 2 x 8
	// B200 on a Lambda 1-Click Cluster (InfiniBand; the fleet's hosts are
	// worker-gpu-8x-b200-*, the task asks for B200:8 on 2 nodes) and on 2
	// GCP A4 VMs (RoCE; the fleet asks for B200:8 on 2 nodes). Other
	// clusters than the GKE A4 machines', so not one machine with them.
	{"b200_2x8_allreduce_lambda_1cc_dstack.log", predict.Pins{Nodes: 2, PerNode: 8, GPU: "NVIDIA B200"}},
	{"b200_2x8_allreduce_gcp_a4_dstack.log", predict.Pins{Nodes: 2, PerNode: 8, GPU: "NVIDIA B200"}},
	// The same guides' AllGathers of 2 GCP A3 Mega and 2 A3 High VMs
	// (GPUDirect-TCPXO and -TCPX; the fleets ask for a3-megagpu-8g and
	// a3-highgpu-8g on 2 nodes, listed as H100:80GB:8) and AllReduce of 2
	// Nebius nodes (InfiniBand; the page's fleet asks for H100:8 on 2
	// nodes). dstack's fleets, not the GKE clusters above, so not one
	// machine with them.
	{"h100_2x8_allgather_gcp_a3mega_dstack.log", predict.Pins{Nodes: 2, PerNode: 8, GPU: "NVIDIA H100 80GB HBM3"}},
	{"h100_2x8_allgather_gcp_a3high_dstack.log", predict.Pins{Nodes: 2, PerNode: 8, GPU: "NVIDIA H100 80GB HBM3"}},
	{"h100_2x8_allreduce_nebius_dstack.log", predict.Pins{Nodes: 2, PerNode: 8, GPU: "NVIDIA H100 80GB HBM3"}},
	// Oracle Japan's OCI tutorial on two BM.GPU.H100.8 over RoCE: its Rank
	// lines give the rest; another shape than its BM.GPU4.8 machine's.
	{"h100_2x8_allreduce_oci_roce_ocitutorials.log", predict.Pins{}},
	// nccl-tests#294's 2 Crusoe H100 VMs of 8 (its reporter's hosts of
	// another run print NVIDIA H100 80GB HBM3), the rows alone, run with
	// NCCL_ALGO=NVLSTree in /etc/nccl.conf, which its user pins.
	{"h100_2x8_allreduce_nvlstree_crusoe_nccltests294.log", predict.Pins{Nodes: 2, PerNode: 8, GPU: "NVIDIA H100 80GB HBM3", Algo: "NVLSTree"}},
	{"h100_pcie_nvlink_bridge_1x2_nccl1161.log", predict.Pins{GPU: "NVIDIA H100 PCIe"}},
	{"h100nvl_2x2_allreduce_slingshot_nccl2441.log", predict.Pins{}},
	{"h200_2x8_allreduce_nebius_runai.log", predict.Pins{}},
	// schmaustech/nvidia-tools-image's 2 H200 pods of 8 GPUs: NCCL_ALGO=ring
	// over NCCL's sockets (IB disabled) on one shared RDMA interface,
	// whose rate the README does not give; other hosts than its L40S pods.
	{"h200_2x8_allreduce_sockets_openshift.log", predict.Pins{Algo: "ring"}},
	{"h200_2x8_allreduce_oci_superant.log", predict.Pins{}},
	{"h800_1x8_broadcast_ncclinfo.log", predict.Pins{}},
	{"l40s_2node_allreduce_openshift.log", predict.Pins{}},
	{"mi250x_4x8_allgather_stalled_rccl1490.log", predict.Pins{Nodes: 4, PerNode: 8, GPU: "AMD Instinct MI250X"}},
	{"mi300x_vf_1x8_allreduce_rccl_issue1562.log", predict.Pins{}},
	{"mi355x_2x8_allreduce_pollara_roce.log", predict.Pins{GPU: "AMD Instinct MI355X"}},
	{"rtx5090_2rank_allreduce_tagoutput_late2025.log", predict.Pins{}},
	{"t4_3node_allreduce_stepbytes_srun.log", predict.Pins{}},
	{"v100_efa_2x1_allreduce_pre2022.log", predict.Pins{}},
	// The NIG supercomputer's guide: an AllToAll of 2 of each node's 4
	// Tesla V100-SXM2-16GB on 2 nodes of one EDR InfiniBand port; its Rank
	// lines print the GPU and the shape as it ran.
	{"v100_2x2_alltoall_ib_edr_nig.log", predict.Pins{}},
}

// publicTables memoizes the public machines' tables by machine: the
// package's tests read the same logs, and only read their tables.
var publicTables memo[[]predict.Table]

// tables reads the machine's tables, named "machine/file#test", once for
// the package's tests, in a list of the caller's own.
func (m publicMachine) tables(t *testing.T) []predict.Table {
	t.Helper()
	tabs, err := publicTables.get(m.name, m.read)
	if err != nil {
		t.Fatal(err)
	}
	return slices.Clone(tabs)
}

// read reads the machine's tables, named "machine/file#test".
func (m publicMachine) read() ([]predict.Table, error) {
	var out []predict.Table
	for _, l := range m.logs {
		tabs, _, err := predict.ReadFile(filepath.Join(publicDir, l.file), func(int) predict.Pins { return l.pins })
		if err != nil {
			return nil, fmt.Errorf("%s: %w", l.file, err)
		}
		for _, tab := range tabs {
			tab.Name = m.name + "/" + l.file + tab.Name[len(tab.Name)-len("#0"):]
			out = append(out, tab)
		}
	}
	return out, nil
}

// TestPublicMachines scores the public machines as a user who has only
// their logs (heldout.NewUserLeaveOneOut, heldout.NewUserFromEach): the
// machine is what commlab makes of the tables' GPU name and evidence, with
// no description from their pages. None may be refused, and the scores
// are held to the golden table docs/scores.md shows.
func TestPublicMachines(t *testing.T) {
	parallelUnlessUpdate(t)
	var b bytes.Buffer
	fmt.Fprintln(&b, "| machine | tables | held out: within 15% | better than one-link | coverage | width median / p90 | one table: predictions | within 15% | better than one-link | coverage | width median / p90 |")
	fmt.Fprintln(&b, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	var loo, each []heldout.Score
	pairs := pairBuckets{}
	// -short scores the machines of two tables alone, whose calibrations
	// settle no fabric by their held-out fit (FitSwitches needs three), and
	// checks their rows.
	short := testing.Short()
	row := func(name, tables string, l, e []heldout.Score) {
		lw, lb := targets(l)
		ew, eb := targets(e)
		l50, l90 := widths(l)
		e50, e90 := widths(e)
		fmt.Fprintf(&b, "| %s | %s | %d of %d | %d | %s | %.2fx / %.2fx | %d | %d | %d | %s | %.2fx / %.2fx |\n",
			name, tables, lw, len(l), lb, pct(heldout.Coverage(l)), l50, l90, len(e), ew, eb, pct(heldout.Coverage(e)), e50, e90)
	}
	// Each held-out table of each machine is scored concurrently (they
	// share nothing), as NewUserLeaveOneOut and NewUserFromEach score them
	// one after another (one machine's 21 tables take most of the time), and
	// the machines are checked and tabled in order. Of two tables, the
	// calibration on one alone that predicts the other is the one that
	// leaves the other out: NewUserFromEach's scores from table i are
	// NewUserLeaveOneOut's of the other table, one call of AsNewUser with
	// the same tables, made once.
	type scored struct {
		tabs       []predict.Table
		l, e       [][]heldout.Score // by held-out table, and by calibration table
		errL, errE []error
	}
	var all []*scored
	for _, m := range publicMachines {
		tabs := m.tables(t)
		if len(tabs) < 2 {
			t.Fatalf("%s: %d tables, want 2 or more", m.name, len(tabs))
		}
		if short && len(tabs) > 2 {
			all = append(all, nil)
			continue
		}
		n := len(tabs)
		all = append(all, &scored{tabs: tabs, l: make([][]heldout.Score, n), e: make([][]heldout.Score, n), errL: make([]error, n), errE: make([]error, n)})
	}
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for _, s := range all {
		if s == nil {
			continue
		}
		for i := range s.tabs {
			rest := slices.Concat(s.tabs[:i], s.tabs[i+1:])
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				s.l[i], s.errL[i] = heldout.AsNewUser(rest, s.tabs[i:i+1])
			}()
			if len(s.tabs) == 2 {
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				s.e[i], s.errE[i] = heldout.AsNewUser(s.tabs[i:i+1], rest)
			}()
		}
	}
	wg.Wait()
	for _, s := range all {
		if s != nil && len(s.tabs) == 2 {
			s.e[0], s.e[1] = s.l[1], s.l[0]
			s.errE[0], s.errE[1] = s.errL[1], s.errL[0]
		}
	}
	split := false
	for i, m := range publicMachines {
		if all[i] == nil {
			continue
		}
		tabs := all[i].tabs
		if err := errors.Join(all[i].errL...); err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
		if err := errors.Join(all[i].errE...); err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
		l, e := slices.Concat(all[i].l...), slices.Concat(all[i].e...)
		if len(tabs) == 3 && !split {
			// The jobs are NewUserLeaveOneOut's and NewUserFromEach's
			// scores, table by table: the first machine of three shows it.
			split = true
			wl, errL := heldout.NewUserLeaveOneOut(tabs)
			we, errE := heldout.NewUserFromEach(tabs)
			if errL != nil || errE != nil || fmt.Sprintf("%+v", wl) != fmt.Sprintf("%+v", l) || fmt.Sprintf("%+v", we) != fmt.Sprintf("%+v", e) {
				t.Errorf("%s: the scores table by table differ from NewUserLeaveOneOut's and NewUserFromEach's (%v, %v)", m.name, errL, errE)
			}
		}
		if len(l) != len(tabs) || len(e) != len(tabs)*(len(tabs)-1) {
			t.Fatalf("%s: %d and %d predictions of %d tables", m.name, len(l), len(e), len(tabs))
		}
		row(m.name, fmt.Sprint(len(tabs)), l, e)
		loo, each = append(loo, l...), append(each, e...)
		across := map[string]bool{}
		for _, tab := range tabs {
			across[tab.Name] = tab.Nodes > 1
		}
		pairs.add(l, across)
	}
	if short {
		goldenRows(t, "public_machines.md", b.Bytes())
		return
	}
	row("all", "", loo, each)
	golden(t, "public_machines.md", b.Bytes())
	var names []string
	for _, m := range publicMachines {
		names = append(names, m.name)
	}
	golden(t, "public_rules.md", ruleTable(t, names, loo))
	golden(t, "public_pairs.md", pairs.table())
	across := map[string]bool{}
	for _, s := range all {
		for _, tab := range s.tabs {
			across[tab.Name] = tab.Nodes > 1
		}
	}
	golden(t, "public_bands.md", bandTable("tables", []groupRow{
		{"one node", func(s heldout.Score) bool { return !across[s.Table] }},
		{"across nodes", func(s heldout.Score) bool { return across[s.Table] }},
		{"all", func(heldout.Score) bool { return true }},
	}, loo))
}

// TestPublicFromName scores every table of the public logs as commlab
// predicts it from the GPU's name and the run's shape alone, no table
// (heldout.FromName): what a user gets before any log of the machine is
// read. None may be refused; the scores are held to the golden table.
func TestPublicFromName(t *testing.T) {
	parallelUnlessUpdate(t)
	var b bytes.Buffer
	fmt.Fprintln(&b, "| table | GPU | ranks (nodes x GPUs) | error, all sizes | inside the interval | width median |")
	fmt.Fprintln(&b, "|---|---|---:|---:|---:|---:|")
	var all []heldout.Score
	for _, m := range append(publicMachines, publicMachine{"single", publicSingles}) {
		tabs := m.tables(t)
		scores, err := heldout.FromName(tabs)
		if err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
		for i, s := range scores {
			w50, _ := widths(scores[i : i+1])
			fmt.Fprintf(&b, "| %s | %s | %d (%d x %d) | %s | %d of %d | %.2fx |\n", s.Table, tabs[i].GPU, tabs[i].Ranks(), tabs[i].Nodes, tabs[i].PerNode,
				pct(s.Model.All), s.Inside, s.Points, w50)
		}
		all = append(all, scores...)
	}
	within, _ := targets(all)
	w50, w90 := widths(all)
	fmt.Fprintf(&b, "| all: %d tables | | | %d within 15%% | %s | %.2fx (p90 %.2fx) |\n", len(all), within, pct(heldout.Coverage(all)), w50, w90)
	golden(t, "public_from_name.md", b.Bytes())
}
