package viewer

import "github.com/cubelab/cube/physics"

// DifferingBodies returns the bodies whose state (any of its fields' bits)
// differs between a and b, ascending, appended to dst. Bodies present in
// only one of the states are left out.
func DifferingBodies(dst []int, a, b *physics.State) []int {
	for i := 0; i < min(len(a.Bodies), len(b.Bodies)); i++ {
		if physics.BodyWords(&a.Bodies[i]) != physics.BodyWords(&b.Bodies[i]) {
			dst = append(dst, i)
		}
	}
	return dst
}
