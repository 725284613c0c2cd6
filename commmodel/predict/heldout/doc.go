// Package heldout measures the calibrated model of package predict on
// tables it did not see, and holds the reports that docs/scores.md prints.
//
// HeldOut scores tables against a calibration on others, with the share of
// their points inside the interval, beside the one-link baseline (the
// article's T = steps·α + bytes/BW through each table's ring algorithm,
// fitted jointly, FitBaseline) and NCCL's uncalibrated model
// (predict.Reference). LeaveOneOut scores every table of a machine from the
// others, and FromEach every table from each other table alone.
// PinCrossovers and TunerSwitches compare crossovers, model against
// measured.
//
// PairedMachines reads the repository's paired logs (data.PairedLogs, listed
// and curated in data.PairedManifest) into machines ready to calibrate.
//
// A user who predicts their own machine needs only package predict; this
// package is for judging the model.
package heldout
