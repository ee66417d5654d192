package physics

import "testing"

func TestShockSide(t *testing.T) {
	g := Vec3{0, -9.81, 0}
	for _, c := range []struct {
		d    Vec3 // normal towards s1
		s2   int32
		g    Vec3
		want uint8
	}{
		{Vec3{0, 1, 0}, 1, g, shockS2},              // s1 lies on s2
		{Vec3{0, -1, 0}, 1, g, shockS1},             // s2 lies on s1
		{Vec3{0.6, 0.8, 0}, 1, g, shockS2},          // 37° off vertical: bears weight
		{Vec3{0.8, 0.6, 0}, 1, g, shockNone},        // 53° off: a side contact
		{Vec3{1, 0, 0}, 1, g, shockNone},            // side by side
		{Vec3{0, 1, 0}, -1, g, shockNone},           // the other side does not move
		{Vec3{0, 1, 0}, 1, Vec3{}, shockNone},       // no gravity
		{Vec3{1, 0, 0}, 1, Vec3{-3, 0, 0}, shockS2}, // gravity along -x: s1, towards +x, lies on s2
	} {
		con := constraint{s1: 0, s2: c.s2, d: c.d}
		if got := shockSide(&con, c.g); got != c.want {
			t.Errorf("normal %v, s2 %d, gravity %v: side %d, want %d", c.d, c.s2, c.g, got, c.want)
		}
	}
}

// TestShockPassMovesOnlyTheUpperBody: in the shock pass a weight-bearing
// contact changes the velocity of its upper body only, stopping it
// against the lower one, and leaves the accumulated impulses alone.
func TestShockPassMovesOnlyTheUpperBody(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Workers = 1
	w, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	top := DefaultBoxDef()
	top.Pos, top.Mass = Vec3{0, 1.5, 0}, 1000
	bottom := DefaultBoxDef()
	bottom.Pos, bottom.Vel = Vec3{0, 0.5, 0}, Vec3{0, 0.5, 0} // rising
	for _, d := range []BoxDef{bottom, top} {
		if _, err := w.AddBox(d); err != nil {
			t.Fatal(err)
		}
	}
	w.activate()
	w.findPairs()
	w.collide()
	var con *constraint
	for ci := range w.ctx.cons {
		if c := &w.ctx.cons[ci]; c.s2 >= 0 {
			con = c
		}
	}
	if con == nil || con.shock == shockNone {
		t.Fatal("no weight-bearing contact between the cubes")
	}
	lower, upper := con.s1, con.s2
	if con.shock == shockS2 {
		lower, upper = upper, lower
	}
	w.ctx.vel[upper].v = Vec3{0, -2, 0} // falling onto the rising cube
	before := w.ctx.vel[lower]
	var pn [maxPoints]float64
	pts := w.ctx.pts[con.first : con.first+con.count]
	for i := range pts {
		pn[i] = pts[i].pn
	}
	k := w.shockConst()
	w.solveContact(con, &k)
	if w.ctx.vel[lower] != before {
		t.Errorf("the lower cube's velocity changed: %v to %v", before, w.ctx.vel[lower])
	}
	// Within the rigid rows' regularisation: blockEps of the 2.5 m/s
	// closing speed.
	if v := w.ctx.vel[upper].v; !near(v.Y, 0.5, 1e-5) || w.ctx.vel[upper].w.Len() > 1e-9 {
		t.Errorf("the upper cube leaves at %v, %v; want the lower one's 0.5 m/s up, no spin", v, w.ctx.vel[upper].w)
	}
	for i := range pts {
		if pts[i].pn != pn[i] {
			t.Errorf("point %d: accumulated impulse %v became %v", i, pn[i], pts[i].pn)
		}
	}
}
