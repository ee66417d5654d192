package predict

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cubelab/cube/physics"
)

// Smoothing numbers, made frame-rate independent: a correction's offset
// fades to a tenth in about 22 frames at 60 Hz (a third of a second),
// quick enough to follow and slow enough not to look like a jump; beyond
// SnapDistance blending would drag the cube visibly through the world.
const (
	// SmoothKeep is the share of the offset left after one 1/60 s frame.
	SmoothKeep = 0.9
	// SnapDistance is the correction size, in metres, at or above which
	// the display jumps instead of blending.
	SnapDistance = 2.0
)

// Smoother hides corrections on screen. The displayed pose is the physics
// pose plus an offset that starts as the correction's jump and decays: the
// position offset to SmoothKeep and the rotation offset slerps 1-SmoothKeep
// towards identity per 1/60 s, for any frame time. It is display only: it
// never feeds back into physics. It uses mathgl, not the deterministic
// physics maths, since its results never need to match across machines.
type Smoother struct {
	Enabled bool
	pos     mgl64.Vec3 // position offset, m
	rot     mgl64.Quat // rotation offset: display = rot * physics
}

// NewSmoother returns an enabled smoother with no offset.
func NewSmoother() Smoother {
	return Smoother{Enabled: true, rot: mgl64.QuatIdent()}
}

func vec(v physics.Vec3) mgl64.Vec3 { return mgl64.Vec3{v.X, v.Y, v.Z} }
func quat(q physics.Quat) mgl64.Quat {
	return mgl64.Quat{W: q.W, V: mgl64.Vec3{q.X, q.Y, q.Z}}
}

// Correct records a correction of the physics pose from (oldPos, oldRot) to
// (newPos, newRot): the offset grows by the jump so that the display does not
// move now. It returns true when the jump was SnapDistance or more and the
// display snapped (the offset is cleared), or smoothing is off.
func (s *Smoother) Correct(oldPos, newPos physics.Vec3, oldRot, newRot physics.Quat) bool {
	jump := vec(oldPos).Sub(vec(newPos))
	if !s.Enabled || jump.Len() >= SnapDistance {
		s.Reset()
		return true
	}
	s.pos = s.pos.Add(jump)
	// display = rot * old must equal rot' * new: rot' = rot * old * new⁻¹.
	s.rot = s.rot.Mul(quat(oldRot)).Mul(quat(newRot).Inverse()).Normalize()
	return false
}

// Update decays the offset over dt seconds of display time.
func (s *Smoother) Update(dt float64) {
	if dt <= 0 {
		return
	}
	keep := math.Pow(SmoothKeep, dt*60)
	s.pos = s.pos.Mul(keep)
	s.rot = mgl64.QuatSlerp(s.rot, mgl64.QuatIdent(), 1-keep)
	if s.rot.W < 0 { // keep the short way round
		s.rot = s.rot.Scale(-1)
	}
}

// Reset clears the offset.
func (s *Smoother) Reset() { s.pos, s.rot = mgl64.Vec3{}, mgl64.QuatIdent() }

// Offset returns the position offset and the rotation offset.
func (s *Smoother) Offset() (mgl64.Vec3, mgl64.Quat) { return s.pos, s.rot }

// Display returns the displayed pose for the physics pose (pos, rot).
func (s *Smoother) Display(pos physics.Vec3, rot physics.Quat) (mgl64.Vec3, mgl64.Quat) {
	return vec(pos).Add(s.pos), s.rot.Mul(quat(rot)).Normalize()
}
