package netsim

import "github.com/cubelab/cube/splitmix"

// Pair is the two directions of one client-server path. Each direction
// has its own random stream, queue and counters; set them apart through
// Up and Down to simulate an asymmetric path.
type Pair struct {
	Up   *Link // client to server
	Down *Link // server to client
}

// NewPair returns two links with conditions c. Their seeds are the first
// two splitmix64 values after seed, so the directions draw different
// streams and the pair is reproduced by seed alone.
func NewPair(c Conditions, seed uint64) (*Pair, error) {
	upSeed := splitmix.Next(&seed)
	downSeed := splitmix.Next(&seed)
	up, err := NewLink(c, upSeed)
	if err != nil {
		return nil, err
	}
	down, err := NewLink(c, downSeed)
	if err != nil {
		return nil, err
	}
	return &Pair{Up: up, Down: down}, nil
}

// SetConditions gives both directions conditions c for packets sent from
// now on. Invalid conditions are refused and neither direction changes.
func (p *Pair) SetConditions(c Conditions) error {
	if err := c.Validate(); err != nil {
		return err
	}
	if err := p.Up.SetConditions(c); err != nil {
		return err
	}
	return p.Down.SetConditions(c)
}

// Reset resets both directions (see Link.Reset).
func (p *Pair) Reset() {
	p.Up.Reset()
	p.Down.Reset()
}
