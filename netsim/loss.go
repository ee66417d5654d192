package netsim

// lossMode says how lossModel decides a packet's fate.
type lossMode uint8

const (
	lossNever       lossMode = iota // Loss == 0
	lossAlways                      // Loss == 1
	lossIndependent                 // BurstLen <= 1: one Bernoulli trial per packet
	lossBursty                      // BurstLen > 1: Gilbert-Elliott chain
)

// lossModel is the loss process of one link direction.
//
// The bursty mode is the Gilbert special case of the Gilbert-Elliott model:
// two states, every packet lost in the bad state and none in the good one.
// Before each packet the chain moves good->bad with probability p or
// bad->good with probability r; the packet is lost if the chain is then bad.
// Bad runs are geometric with mean 1/r, and the stationary bad fraction is
// p/(p+r). Choosing r = 1/B and p = L/(B(1-L)) gives mean burst B and
// average loss L.
type lossModel struct {
	mode lossMode
	loss float64 // Loss, for lossIndependent
	p    float64 // P(good -> bad), for lossBursty
	r    float64 // P(bad -> good), for lossBursty
	bad  bool    // current state of the chain
}

// configure sets the model for average loss l and mean burst length burst
// (both already validated). The chain keeps its state across a change
// between bursty settings so a burst in progress is not cut short; it is
// forced good when loss is switched off so that "perfect" is perfect at once.
func (m *lossModel) configure(l, burst float64) {
	switch {
	case l <= 0:
		*m = lossModel{mode: lossNever}
	case l >= 1:
		*m = lossModel{mode: lossAlways, bad: true}
	case burst <= 1:
		*m = lossModel{mode: lossIndependent, loss: l}
	default:
		// A good run lasts at least one packet, so 1/p >= 1 and the
		// burst must be at least l/(1-l) for the average to stay l.
		b := max(burst, l/(1-l))
		m.mode = lossBursty
		m.r = 1 / b
		m.p = min(1, l/(b*(1-l)))
	}
}

// lost advances the model by one packet, using the uniform draw u in
// [0, 1), and reports whether that packet is lost.
func (m *lossModel) lost(u float64) bool {
	switch m.mode {
	case lossNever:
		return false
	case lossAlways:
		return true
	case lossIndependent:
		return u < m.loss
	}
	if m.bad {
		m.bad = u >= m.r
	} else {
		m.bad = u < m.p
	}
	return m.bad
}
