package render

import (
	"fmt"
	"strings"

	"github.com/go-gl/gl/v4.1-core/gl"
)

// compileProgram compiles and links a vertex and a fragment shader. name
// identifies the program in errors, which carry the driver's log.
func compileProgram(name, vertSrc, fragSrc string) (uint32, error) {
	vs, err := compileShader(vertSrc, gl.VERTEX_SHADER)
	if err != nil {
		return 0, fmt.Errorf("render: %s vertex shader: %w", name, err)
	}
	defer gl.DeleteShader(vs)
	fs, err := compileShader(fragSrc, gl.FRAGMENT_SHADER)
	if err != nil {
		return 0, fmt.Errorf("render: %s fragment shader: %w", name, err)
	}
	defer gl.DeleteShader(fs)

	prog := gl.CreateProgram()
	gl.AttachShader(prog, vs)
	gl.AttachShader(prog, fs)
	gl.LinkProgram(prog)
	var status int32
	gl.GetProgramiv(prog, gl.LINK_STATUS, &status)
	if status == gl.FALSE {
		var n int32
		gl.GetProgramiv(prog, gl.INFO_LOG_LENGTH, &n)
		log := infoLog(n, func(n int32, l *int32, b *uint8) { gl.GetProgramInfoLog(prog, n, l, b) })
		gl.DeleteProgram(prog)
		return 0, fmt.Errorf("render: %s program does not link: %s", name, log)
	}
	gl.DetachShader(prog, vs)
	gl.DetachShader(prog, fs)
	return prog, nil
}

// compileShader compiles one shader stage; the error holds the compile log.
func compileShader(src string, kind uint32) (uint32, error) {
	sh := gl.CreateShader(kind)
	csrc, free := gl.Strs(src + "\x00")
	gl.ShaderSource(sh, 1, csrc, nil)
	free()
	gl.CompileShader(sh)
	var status int32
	gl.GetShaderiv(sh, gl.COMPILE_STATUS, &status)
	if status == gl.FALSE {
		var n int32
		gl.GetShaderiv(sh, gl.INFO_LOG_LENGTH, &n)
		log := infoLog(n, func(n int32, l *int32, b *uint8) { gl.GetShaderInfoLog(sh, n, l, b) })
		gl.DeleteShader(sh)
		return 0, fmt.Errorf("does not compile: %s", log)
	}
	return sh, nil
}

// infoLog fetches a shader or program log of n bytes through get and
// returns it trimmed to one line per message, joined by "; ".
func infoLog(n int32, get func(n int32, length *int32, buf *uint8)) string {
	if n <= 1 {
		return "(no log)"
	}
	buf := make([]uint8, n)
	var length int32
	get(n, &length, &buf[0])
	text := strings.TrimSpace(string(buf[:length]))
	return strings.Join(strings.Fields(strings.ReplaceAll(text, "\n", " ; ")), " ")
}

// uniform returns the location of a uniform of prog; -1 (ignored by
// gl.Uniform*) when the driver optimised it away.
func uniform(prog uint32, name string) int32 {
	return gl.GetUniformLocation(prog, gl.Str(name+"\x00"))
}
