package predict

import (
	"fmt"
	"slices"

	"github.com/inframethod/commlab/commmodel/nccl"
	"github.com/inframethod/commlab/presets"
)

// setSystem applies Describe's system key: the facts of the system of that
// name in the catalog (presets.Systems, which cites each one's
// documentation), from the catalog, for a GPU of the system's product.
func (h *Hardware) setSystem(name string) error {
	s, ok := presets.SystemByName(name)
	if !ok {
		return fmt.Errorf("want one of %s", presets.SystemNames())
	}
	g, err := nccl.ParseGPU(s.GPU)
	if err != nil {
		return err
	}
	if h.GPU.Name != g.Name {
		return fmt.Errorf("%s is a system of %s, not of %s", s.Name, g.Name, h.GPU.Name)
	}
	f := slices.Index(fabricNames[:], s.Fabric)
	h.Fabric, h.Sources.Fabric = Fabric(f), SourceCatalog
	h.NVLS, h.Sources.NVLS = h.Fabric == FabricNVSwitch && h.GPU.SupportsNVLS(), SourceCatalog
	if s.Domain > 0 {
		h.Domain, h.Sources.Domain = s.Domain, SourceCatalog
	}
	if s.NICs > 0 {
		h.NICs, h.Sources.NICs = s.NICs, SourceCatalog
	}
	if s.NICBW > 0 {
		h.NICBW, h.Sources.NICBW = s.NICBW, SourceCatalog
	}
	return nil
}
