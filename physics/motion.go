package physics

import "fmt"

// SetMotion sets body i's pose and velocities and nothing else: its
// accumulated forces, its rest counter and its sleep state stay as they
// are. It is for rules applied after a step to every moving body, such as
// quantising the state to a grid, which must not keep bodies awake. It
// refuses non-finite values and an orientation that is not unit length.
func (w *World) SetMotion(i int, pos Vec3, rot Quat, vel, angVel Vec3) error {
	if i < 0 || i >= len(w.shapes) {
		return fmt.Errorf("physics: body %d does not exist (have %d)", i, len(w.shapes))
	}
	b := w.st.Bodies[i]
	b.Pos, b.Rot, b.Vel, b.AngVel = pos, rot, vel, angVel
	if err := checkBody(i, &b); err != nil {
		return err
	}
	w.st.Bodies[i] = b
	w.derive(i)
	return nil
}
