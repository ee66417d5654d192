package render

import "testing"

func TestSoftwareRenderer(t *testing.T) {
	for info, want := range map[string]bool{
		"llvmpipe (LLVM 15.0.6, 256 bits); OpenGL 4.5 (Core Profile) Mesa 22.3.6; GLSL 4.50": true,
		"softpipe; OpenGL 4.1":                                 true,
		"NVIDIA GeForce RTX 3060/PCIe/SSE2; OpenGL 4.6.0":      false,
		"AMD Radeon RX 6800 (radeonsi, navi21, LLVM 15.0.6)":   false,
		"Apple M1; OpenGL 4.1 Metal - 83.1; GLSL 4.10":         false,
		"Mesa Intel(R) UHD Graphics 620 (KBL GT2); OpenGL 4.6": false,
	} {
		if got := softwareRenderer(info); got != want {
			t.Errorf("softwareRenderer(%q) = %v, want %v", info, got, want)
		}
	}
}
