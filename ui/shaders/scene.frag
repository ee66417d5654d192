#version 410 core

// Room for more casters than render sends (8): with a small array, Mesa
// unrolls the caster loop to its full length and runs every iteration on
// every pixel, doubling the frame time of llvmpipe.
const int MAX_CASTERS = 64;

// FILL is the strength of the fill light on the boxes' side faces.
const float FILL = 0.8;

in vec3 vWorld;
in vec3 vNormal;
in vec4 vColor;
flat in int vMode;

uniform vec3 uLightDir;   // unit vector towards the light
uniform vec3 uEye;        // camera position, for fog
uniform vec3 uSky;        // fog and clear colour
uniform vec2 uFog;        // fog start and end distance
uniform int uNumCasters;
uniform vec4 uCasters[MAX_CASTERS]; // xyz: bottom centre of a caster, w: radius
uniform vec4 uShadowBounds;         // x0, z0, x1, z1: where any shadow can fall

out vec4 fragColor;

// checker returns 0 or 1 for the unit squares around p, box-filtered over the
// pixel footprint so that distant squares fade to grey instead of shimmering.
float checker(vec2 p) {
    vec2 w = fwidth(p) + 1e-4;
    vec2 i = 2.0 * (abs(fract((p - 0.5 * w) * 0.5) - 0.5) -
                    abs(fract((p + 0.5 * w) * 0.5) - 0.5)) / w;
    return 0.5 - 0.5 * i.x * i.y;
}

// gridLine returns the coverage of lines of the given spacing through p.
float gridLine(vec2 p, float spacing, float width) {
    vec2 q = p / spacing;
    vec2 fw = fwidth(q);
    vec2 d = abs(fract(q - 0.5) - 0.5) / max(fw, 1e-4);
    float line = 1.0 - min(min(d.x, d.y) / (width), 1.0);
    // Fade lines out where they get denser than the pixels.
    return line * clamp(1.0 - 2.0 * max(fw.x, fw.y), 0.0, 1.0);
}

// blobShadow returns how much the upward-facing surface at p with normal n is
// shaded by the casters above it: a soft disc that widens and fades with the
// caster's height above the surface.
float blobShadow(vec3 p, vec3 n) {
    float up = clamp(n.y * 1.5 - 0.25, 0.0, 1.0);
    // Most of the screen is far from every caster: skip the loop there.
    if (up <= 0.0 || any(lessThan(p.xz, uShadowBounds.xy)) || any(greaterThan(p.xz, uShadowBounds.zw))) {
        return 0.0;
    }
    float s = 0.0;
    for (int i = 0; i < uNumCasters; i++) {
        vec4 c = uCasters[i];
        float h = c.y - p.y;
        if (h < -0.05) {
            continue;
        }
        h = max(h, 0.0);
        float r = c.w * (1.0 + 0.3 * h); // at most 2.5 c.w: h > 5 casts nothing
        float d = length(p.xz - c.xz);
        float a = (1.0 - smoothstep(0.5 * r, r, d)) * clamp(1.0 - h / 5.0, 0.0, 1.0);
        s = max(s, a);
    }
    return s * up;
}

void main() {
    if (vMode == 2) {
        fragColor = vColor;
        return;
    }
    vec3 n = normalize(vNormal);
    vec3 base = vColor.rgb;
    if (vMode == 1) {
        float c = checker(vWorld.xz);
        base = mix(vec3(0.36, 0.38, 0.40), vec3(0.46, 0.48, 0.50), c);
        base = mix(base, vec3(0.24, 0.26, 0.30), 0.6 * gridLine(vWorld.xz, 10.0, 1.2));
        // The world axes, red along x and blue along z.
        vec2 a = abs(vWorld.xz) / max(fwidth(vWorld.xz), vec2(1e-4));
        base = mix(base, vec3(0.75, 0.25, 0.25), clamp(1.5 - a.y, 0.0, 1.0) * 0.8);
        base = mix(base, vec3(0.25, 0.35, 0.80), clamp(1.5 - a.x, 0.0, 1.0) * 0.8);
    }
    float diffuse = max(dot(n, uLightDir), 0.0);
    float hemi = 0.5 + 0.5 * n.y;
    vec3 ambient = mix(vec3(0.22, 0.21, 0.20), vec3(0.42, 0.46, 0.54), hemi);
    vec3 light = ambient + diffuse * vec3(0.80, 0.77, 0.70);
    if (vMode == 0) {
        // A fill light from the camera's side on the boxes' side faces:
        // without it a face turned from the sun has the ambient alone, a
        // third of its colour, and a light body seen from that side is as
        // dark as a wall. It wraps (half strength on a face seen edge on),
        // so that the side faces come near the top faces, which the sun
        // lights: the tops' millimetre ledges between stacked boxes, thinner
        // than a pixel, would otherwise speckle the sides.
        vec2 toEye = uEye.xz - vWorld.xz;
        float side = 1.0 - abs(n.y);
        if (side > 0.0 && dot(toEye, toEye) > 1e-6) {
            float facing = max(dot(n.xz, normalize(toEye)), 0.0);
            light += side * (0.5 + 0.5 * facing) * vec3(FILL);
        }
    }
    vec3 lit = base * light;
    lit *= 1.0 - 0.55 * blobShadow(vWorld, n);
    float fog = smoothstep(uFog.x, uFog.y, length(vWorld - uEye));
    fragColor = vec4(mix(lit, uSky, fog), vColor.a);
}
