// Package presets holds the hardware of the source article (an analysis of
// an 8 x H20 inference server) as commmodel values: the links inside and
// between its nodes (H20Intra, H20Inter, H20Cluster), its NVSwitch fabric
// and NIC (H20NVSwitch, H20NICLineRate), and the Ascend 910B mesh it
// compares with. Each value's comment derives it from the article's
// statements or from NCCL's source. Beside them, Systems is the catalog of
// servers and racks of a defined build, each citing its maker's
// documentation; package predict turns a system into a machine
// (predict.Describe's system key) and its links (predict.Hardware.Links).
//
// The model in package commmodel needs none of them; they are the inputs
// the command line (commlab model -link, -server), the notebooks and the
// tests start from.
package presets
