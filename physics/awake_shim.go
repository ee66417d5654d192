package physics

// Awake reports whether body i moves this step (a stand-in until the
// engine sleeps: every dynamic body is awake).
func (w *World) Awake(i int) bool { return !w.shapes[i].static }
