#version 410 core

// One end of a debug line, or a point.
layout(location = 0) in vec3 aPos;   // world position
layout(location = 1) in vec3 aColor; // linear RGB
layout(location = 2) in float aSize; // a point's width, metres

uniform mat4 uViewProj;
uniform float uPixels; // pixels a metre covers at distance 1 from the camera

out vec3 vColor;

void main() {
    gl_Position = uViewProj * vec4(aPos, 1.0);
    vColor = aColor;
    gl_PointSize = clamp(aSize * uPixels / max(gl_Position.w, 0.1), 2.0, 16.0);
}
