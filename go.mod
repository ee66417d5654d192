module github.com/cubelab/cube

go 1.26.0

require (
	github.com/go-gl/gl v0.0.0-20231021071112-07e5d0ea2e71
	github.com/go-gl/glfw/v3.3/glfw v0.0.0-20260823155953-d41da22a9587
	github.com/go-gl/mathgl v1.2.0
	github.com/quic-go/quic-go v0.65.0
	golang.org/x/image v0.47.0
	golang.org/x/term v0.47.0
)

require (
	golang.org/x/crypto v0.54.0 // indirect
	golang.org/x/net v0.56.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)
