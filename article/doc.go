// Package article holds the analyses of the source article (推理 INFRA
// 方法论（1）：通信模型, an 8 x H20 inference server) that the notebooks show:
// one file per notebook (nb01_allreduce.go ... nb07_prediction.go), the
// claims ledger that "commlab claims" prints (Ledger), and the notebooks'
// exhibits that "commlab reproduce" writes (Exhibits).
//
// Every analysis takes its inputs as arguments: measurements as gota
// DataFrames of the tidy schema (data.Points.Frame) or as fit samples
// (data.Samples of such a frame), links and clusters, the rank count P, and
// *fit.Settings (nil: fit's defaults). The package holds no settings of its
// own: a notebook cell passes the article's values (presets.H20Intra,
// H20Inter and H20Cluster, topo.H20Figures) or others. Ledger and Exhibits
// use the article's values.
//
// Figures and tables are package figure's; this package decides what they
// show. It imports nothing of GoNB, so that the command line can use it;
// the notebooks display its exhibits with package notebooks/nbshow.
package article
