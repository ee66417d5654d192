package physics

// BodyState is everything about one body that changes while the world runs.
type BodyState struct {
	Pos    Vec3 // centre of mass, m
	Rot    Quat // orientation, unit length
	Vel    Vec3 // linear velocity, m/s
	AngVel Vec3 // angular velocity, rad/s, world frame
	Force  Vec3 // force accumulated for the next step, N
	Torque Vec3 // torque accumulated for the next step, N·m

	// Rest counts the consecutive steps the body moved slower than
	// Config.SleepSpeed; its island sleeps when every member's count
	// reaches Config.SleepTicks.
	Rest uint32
	// Asleep: the body is at rest and skipped by the step until something
	// wakes it (a force, an impulse, SetBody, contact with an awake body).
	Asleep bool
	// Disabled: the body takes no part in anything (see World.SetEnabled).
	Disabled bool
}

// Ground is the body index that stands for the ground plane in a contact.
const Ground = -1

// ContactState is one entry of the contact cache: a contact point found in the
// previous step and the impulses the solver settled on, used to warm-start the
// next step. A and B are body indices, A < B or B = Ground; Feature names the
// geometric contact (see the feature constants in manifold.go): for a box on
// the ground the vertex; for two boxes the reference face and the incident
// vertex or clipped edge, or the two crossing edges. The feature also gives
// the contact's normal (World.ContactNormal), so the cache does not keep it.
type ContactState struct {
	A, B    int32
	Feature uint32
	Pn      float64 // accumulated normal impulse of one substep, N·s
	Pt1     float64 // accumulated friction impulse at the point, along the first tangent of the normal
	Pt2     float64 // along the second tangent
}

// key orders contacts: by A, then B, then Feature.
func (c *ContactState) key() uint64 { return contactKey(c.A, c.B, c.Feature) }

// contactKey is the total order of contacts: A, then B (Ground first), then
// the feature (16 bits).
func contactKey(a, b int32, feature uint32) uint64 {
	return uint64(uint32(a))<<40 | uint64(uint32(b+1))<<16 | uint64(feature)
}

// State is the complete evolving state of a World, as a value. Save fills
// one, Restore brings it back; Bodies are in body index order and Contacts in
// (A, B, Feature) order. Contacts of sleeping bodies stay in the cache while
// they sleep.
type State struct {
	Tick     uint32
	Bodies   []BodyState
	Contacts []ContactState
}

// CopyFrom makes s an exact copy of src, reusing s's buffers when they are
// large enough.
func (s *State) CopyFrom(src *State) {
	s.Tick = src.Tick
	s.Bodies = append(s.Bodies[:0], src.Bodies...)
	s.Contacts = append(s.Contacts[:0], src.Contacts...)
}

// Equal reports whether a and b hold the same bits: -0 differs from +0 and a
// NaN equals a NaN with the same payload.
func (a *State) Equal(b *State) bool {
	if a.Tick != b.Tick || len(a.Bodies) != len(b.Bodies) || len(a.Contacts) != len(b.Contacts) {
		return false
	}
	for i := range a.Bodies {
		if bodyWords(&a.Bodies[i]) != bodyWords(&b.Bodies[i]) {
			return false
		}
	}
	for i := range a.Contacts {
		if contactWords(&a.Contacts[i]) != contactWords(&b.Contacts[i]) {
			return false
		}
	}
	return true
}
