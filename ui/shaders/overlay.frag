#version 410 core

in vec2 vUV;
in vec4 vColor;

// Single-channel glyph coverage atlas, sampled at whole texels.
uniform sampler2D uAtlas;

out vec4 fragColor;

void main() {
    // Solid shapes have negative atlas coordinates and need no lookup.
    float coverage = vUV.x < 0.0 ? 1.0 : texture(uAtlas, vUV).r;
    fragColor = vec4(vColor.rgb, vColor.a * coverage);
}
