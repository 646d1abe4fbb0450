package layout

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// sortEdges must order edges by coordinate or start exactly as a
// comparison sort does, up to the order of ties, whatever the sizes,
// signs and near-ties of the values.
func TestSortEdges(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	sc := &scratch{}
	for _, n := range []int{0, 1, 2, 5, 12, 13, 100, 5000} {
		for _, spread := range []float64{1e-9, 1, 3000} {
			es := make([]edge, n)
			for i := range es {
				v := (rng.Float64() - 0.3) * spread
				if rng.IntN(4) == 0 && i > 0 {
					v = es[rng.IntN(i)].c // exact ties
				}
				if rng.IntN(50) == 0 {
					v = 0
				}
				es[i] = edge{c: v, lo: -v, hi: float64(i)}
			}
			for _, byLo := range []bool{false, true} {
				got := slices.Clone(es)
				sortEdges(got, byLo, sc)
				key := func(e edge) float64 {
					if byLo {
						return e.lo
					}
					return e.c
				}
				if !slices.IsSortedFunc(got, func(a, b edge) int {
					switch {
					case key(a) < key(b):
						return -1
					case key(a) > key(b):
						return 1
					}
					return 0
				}) {
					t.Fatalf("n=%d spread=%g byLo=%v: not sorted", n, spread, byLo)
				}
				// The same edges: each edge's hi is its original index.
				seen := make([]bool, n)
				for _, e := range got {
					seen[int(e.hi)] = true
				}
				if slices.Contains(seen, false) {
					t.Fatalf("n=%d spread=%g byLo=%v: edges lost", n, spread, byLo)
				}
			}
		}
	}
}
