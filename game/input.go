package game

import "strings"

// Input is one tick of one player's input: six bits, W A S D, jump and pull.
type Input uint8

// Input bits.
const (
	Forward Input = 1 << iota // W: push towards -Z
	Left                      // A: push towards -X
	Back                      // S: push towards +Z
	Right                     // D: push towards +X
	Jump                      // space: an upward impulse, only when standing on something
	Pull                      // E: pull nearby boxes towards the player (scenes with a pull radius)

	// InputMask has every valid bit set.
	InputMask = Forward | Left | Back | Right | Jump | Pull
)

// InputBits is the number of bits an input uses on the wire and in records.
const InputBits = 6

// String returns the held keys as letters, "-" for none: "WA", "SDJ", "WE".
func (in Input) String() string {
	if in&InputMask == 0 {
		return "-"
	}
	var b strings.Builder
	for i, c := range "WASDJE" {
		if in&(1<<i) != 0 {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// Valid reports whether in has no bits outside InputMask.
func (in Input) Valid() bool { return in&^InputMask == 0 }
