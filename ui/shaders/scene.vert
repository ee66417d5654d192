#version 410 core

// One vertex of the unit cube (corners at -1 and +1) and its face normal.
layout(location = 0) in vec3 aPos;
layout(location = 1) in vec3 aNormal;

// Per instance: one box.
layout(location = 2) in vec3 iCenter;  // world position of the centre
layout(location = 3) in vec3 iHalf;    // half extents along the box axes
layout(location = 4) in vec4 iRot;     // rotation quaternion (x, y, z, w)
layout(location = 5) in vec4 iColor;   // linear RGB and alpha
layout(location = 6) in float iMode;   // 0 lit, 1 ground, 2 flat (unlit)

uniform mat4 uViewProj;

out vec3 vWorld;
out vec3 vNormal;
out vec4 vColor;
flat out int vMode;

// qrot rotates v by the unit quaternion q.
vec3 qrot(vec4 q, vec3 v) {
    return v + 2.0 * cross(q.xyz, cross(q.xyz, v) + q.w * v);
}

void main() {
    // A face normal of an axis-aligned box keeps its direction under a
    // non-uniform scale, so only the rotation applies to it.
    vWorld = iCenter + qrot(iRot, aPos * iHalf);
    vNormal = qrot(iRot, aNormal);
    vColor = iColor;
    vMode = int(iMode + 0.5);
    gl_Position = uViewProj * vec4(vWorld, 1.0);
}
