package article

import "sync"

// sharedPairedScores is PairedScores, computed once for the package's tests
// (TestPredictionTables and TestPredictHeldOut both check it without -short).
var sharedPairedScores = sync.OnceValues(PairedScores)
