package physics

import "strings"

// Input is one tick of player input: five bits, W A S D and jump.
type Input uint8

// Input bits.
const (
	Forward Input = 1 << iota // W: push towards -Z
	Left                      // A: push towards -X
	Back                      // S: push towards +Z
	Right                     // D: push towards +X
	Jump                      // space: an upward impulse, only when grounded

	// InputMask has every valid bit set.
	InputMask = Forward | Left | Back | Right | Jump
)

// Numbers of the input-to-force rule.
const (
	PushForce   = 14.0 // N per held direction key
	MaxPushVel  = 6.0  // m/s: no push along a direction already this fast
	JumpImpulse = 5.0  // N·s, upward
)

// String returns the held keys as letters, "-" for none: "WA ", "SD J".
func (in Input) String() string {
	if in&InputMask == 0 {
		return "-"
	}
	var b strings.Builder
	for i, c := range "WASDJ" {
		if in&(1<<i) != 0 {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// ApplyInput turns one tick of input into forces on body i. It is the one
// rule that client and server both call: directions are world axes (never a
// camera's), a direction key pushes with PushForce unless the body already
// moves faster than MaxPushVel that way, and jump gives an upward impulse
// only when the body stood on something in the last step.
func ApplyInput(w *World, i int, in Input) error {
	if err := w.dynamic(i); err != nil {
		return err
	}
	v := w.st.Bodies[i].Vel
	var f Vec3
	if in&Forward != 0 && v.Z > -MaxPushVel {
		f.Z -= PushForce
	}
	if in&Back != 0 && v.Z < MaxPushVel {
		f.Z += PushForce
	}
	if in&Left != 0 && v.X > -MaxPushVel {
		f.X -= PushForce
	}
	if in&Right != 0 && v.X < MaxPushVel {
		f.X += PushForce
	}
	if err := w.ApplyForce(i, f); err != nil {
		return err
	}
	if in&Jump != 0 && w.Grounded(i) {
		return w.ApplyImpulse(i, Vec3{0, JumpImpulse, 0})
	}
	return nil
}

// StepInput applies one tick of input to the player and steps the world:
// the composition client, server and replay share.
func StepInput(w *World, in Input) error {
	if err := ApplyInput(w, Player, in); err != nil {
		return err
	}
	w.Step()
	return nil
}
