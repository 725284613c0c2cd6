package predict

import (
	"strings"
	"testing"
)

// TestFactHints: every fact Facts can list has the hint its Describe key
// takes, and each value the hint offers (a sample where it names a
// placeholder: N, RATE, K) is one Describe takes; a fact that no key
// sets has none (red team D §4: network_group's hint was
// group=nvswitch|mesh|pcie, nvlink_pairs' pairs=nvswitch|mesh|pcie, and
// gpu's "=nvswitch|mesh|pcie").
func TestFactHints(t *testing.T) {
	const h100, rtx, a6000, mi300x = "NVIDIA H100 80GB HBM3", "NVIDIA GeForce RTX 4090", "NVIDIA RTX A6000", "AMD Instinct MI300X"
	cases := map[string]struct {
		value   string // the fact's value, where the hint depends on it
		form    string // the hint's value up to its explanation
		gpu     string // the GPU Describe takes it on
		spec    string // what else the description needs
		example string // a value of a placeholder
	}{
		"gpu":           {},
		"gpus_per_node": {form: "N", gpu: h100, example: "8"},
		"fabric":        {form: "nvswitch|mesh|pcie", gpu: h100},
		"fabric ":       {value: "infinity", form: "infinity|pcie", gpu: mi300x},
		"nvlink_pairs":  {form: "true|false", gpu: a6000, spec: "fabric=pcie"},
		"links":         {form: "N", gpu: h100, example: "18"},
		"link_bw":       {form: "RATE", gpu: h100, example: "25GB/s"},
		"host_bw":       {form: "RATE", gpu: rtx, example: "18GB/s"},
		"nvls":          {form: "true|false", gpu: h100},
		"nics_per_node": {form: "N", gpu: h100, example: "8"},
		"nics_in_use":   {},
		"coll_channels": {},
		"nic_bw":        {form: "RATE", gpu: h100, example: "400Gb/s"},
		"nic_path":      {form: "PIX|PXB|P2C|PXN|PHB|SYS", gpu: h100},
		"collnet":       {form: "true|false", gpu: h100},
		"cpu":           {form: "intel|amd|arm|power", gpu: h100},
		"nvlink_domain": {form: "N", gpu: h100, example: "8"},
		"network_group": {form: "N", gpu: h100, example: "4"},
		"net_latency":   {form: "K", gpu: h100, example: "16"},
	}
	for _, f := range facts {
		if _, ok := cases[f.name]; !ok {
			t.Errorf("fact %s: no case", f.name)
		}
	}
	for name, c := range cases {
		name = strings.TrimSpace(name)
		k := -1
		for i := range facts {
			if facts[i].name == name {
				k = i
			}
		}
		if k < 0 {
			t.Errorf("%s: no such fact", name)
			continue
		}
		key := facts[k].key
		hint := Fact{Name: name, Key: key, Value: c.value}.Hint()
		if c.form == "" {
			if hint != "" {
				t.Errorf("%s: hint %q, want none (no key sets it)", name, hint)
			}
			continue
		}
		form, _, _ := strings.Cut(strings.TrimPrefix(hint, key+"="), " (")
		if !strings.HasPrefix(hint, key+"=") || form != c.form {
			t.Errorf("%s: hint %q, want %s=%s", name, hint, key, c.form)
			continue
		}
		for _, v := range strings.Split(form, "|") {
			if v == "N" || v == "RATE" || v == "K" {
				v = c.example // a placeholder, not a value
			}
			spec := key + "=" + v
			if c.spec != "" {
				spec = c.spec + "," + spec
			}
			if _, err := Describe(c.gpu, spec); err != nil {
				t.Errorf("%s: %s's %s: %v", name, hint, spec, err)
			}
		}
	}
}
