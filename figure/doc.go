// Package figure draws commlab's figures and tables: the generic plotting
// shared by the notebooks and by the command line ("commlab reproduce",
// "commlab plot"; through package article, which holds the article's
// analyses), so that no plotting code exists twice. It knows the cost model
// (ModelTable, CrossoverTable and RegimeFigure take algorithms and links;
// TimeFigure, TimeSeries, WinnerMarks and TimeTable take algorithms and any
// commmodel.Timer: a Flat link, a Cluster, a Fabric) and gota frames
// (FrameTable), and nothing of the datasets, topologies or fits.
//
// Values come in SI base units (B, s, B/s), as everywhere in commlab; an
// Axis names its Unit and the tick labels carry it ("64 KiB", "10 µs",
// "300 GB/s"). Sizes are labelled with binary prefixes because nccl-tests
// sweeps powers of two and the article's KB and MB are binary; bandwidths use
// decimal prefixes (GB/s = 1e9 B/s) as nccl-tests prints them.
//
// A Figure is a line or scatter plot (log-log where sizes span decades) with
// a legend and optional Marks (crossovers as labelled vertical lines or
// points) and a series' interval drawn as a band (Series.Low, High); a
// RegimeMap colours a grid of (size, ranks) cells by the fastest algorithm; a
// Table renders as Markdown or HTML. A figure renders to PNG bytes at 96 DPI
// (PNG), which package notebooks/nbshow displays in a GoNB notebook, or to a
// file by its extension (Save): PNG at a resolution of one's choice, SVG or
// PDF.
package figure
