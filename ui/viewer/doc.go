// Package viewer is the logic of the record viewer (cube replay -window):
// the world at any point of a record, found by the record's stored full
// states (its keyframes) and the engine's rewind and replay; a background
// check of every tick against the record; the differing bodies at a
// divergence; and the timeline's and the play clock's arithmetic. It does
// not import OpenGL: the window (ui/window) draws what it says,
// and it is tested without a display.
//
// # Positions
//
// A record is a list of steps (simulated ticks and skips). Position p is
// the world after the first p steps: position 0 is the record's initial
// state, position len(Steps) the state after the last step. The timeline,
// the seek and the play clock count positions; the window shows the world's
// tick at a position.
//
// # Keyframes and segments
//
// Position 0 and every position after a step that stores a full state are
// keyframes. The world at position p > 0 is the keyframe before p (strictly
// before: the greatest keyframe k < p) restored, then steps k to p-1 re-
// simulated. So a position that is itself a keyframe is re-simulated from
// the keyframe before it and can be compared bit for bit with its stored
// state: that is where the viewer shows the recorded and the re-simulated
// worlds together. A seek costs one Restore and at most FullEvery steps
// (64 by default); the states of the segment being played are cached, so
// stepping back within it costs one Load. The background Checker keeps the
// state in the middle of each segment it re-simulates (within
// DerivedBudget), and a Seeker told to UseDerived starts from those too:
// the same bits, half the longest seek.
//
// For a record that matches, this is the straight replay's world at every
// position. For one that diverges, it is the straight replay's world up to
// the first keyframe at or after the first divergence (so the first
// divergence and its field report are the ones cube replay prints); later
// segments restart from the record's own states, so each segment shows
// whether it re-simulates alike on its own.
package viewer
