package physics

// Check reports why s cannot be restored into w (body count, contact
// indices and order, non-finite values), or nil if Restore would take it.
// It changes nothing.
func (w *World) Check(s *State) error { return w.checkState(s) }
