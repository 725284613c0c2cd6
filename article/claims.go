package article

// A Claim is one checkable statement of the source article, with what the
// article says (Expected) beside what the model computes (Got).
type Claim struct {
	// ID is a short stable name, such as "ring-steps-p8".
	ID string
	// Statement is the article's statement, in English.
	Statement string
	// Expected is what the article says, in words and numbers.
	Expected string
	// Got is what commlab computes.
	Got string
	// Pass reports whether Got agrees with Expected.
	Pass bool
}

// Ledger returns every claim of the article that commlab checks, the list
// "commlab claims" prints, computed with the article's inputs: the model's,
// the fabrics' and the measurements' claims, in that order.
func Ledger() []Claim { return ledger(articleInputs()) }

// ledger returns every claim computed with the inputs in.
func ledger(in inputs) []Claim {
	var out []Claim
	out = append(out, modelClaims(in)...)
	out = append(out, fabricClaims(in)...)
	return append(out, measuredClaims(in)...)
}
