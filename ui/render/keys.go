package render

import "github.com/go-gl/glfw/v3.3/glfw"

// Key is a keyboard key, independent of the windowing library.
// The zero value is KeyUnknown; keys without a Key constant are not reported.
type Key int

// The keys the window reports. Letters and digits are named by the US layout
// position of the key (as glfw does), so KeyW is the key left of E everywhere.
const (
	KeyUnknown Key = iota
	KeyA
	KeyB
	KeyC
	KeyD
	KeyE
	KeyF
	KeyG
	KeyH
	KeyI
	KeyJ
	KeyK
	KeyL
	KeyM
	KeyN
	KeyO
	KeyP
	KeyQ
	KeyR
	KeyS
	KeyT
	KeyU
	KeyV
	KeyW
	KeyX
	KeyY
	KeyZ
	Key0
	Key1
	Key2
	Key3
	Key4
	Key5
	Key6
	Key7
	Key8
	Key9
	KeySpace
	KeyLeftBracket
	KeyRightBracket
	KeyPeriod
	KeyComma
	KeyMinus
	KeyEqual
	KeySlash
	KeySemicolon
	KeyBackspace
	KeyEnter
	KeyTab
	KeyEscape
	KeyUp
	KeyDown
	KeyLeft
	KeyRight
	KeyPageUp
	KeyPageDown
	KeyHome
	KeyEnd
	KeyLeftShift
	KeyRightShift
	KeyLeftControl
	KeyRightControl
	KeyF1
	KeyF2
	KeyF3
	KeyF4
	KeyF5
	KeyF6
	KeyF7
	KeyF8
	KeyF9
	KeyF10
	KeyF11
	KeyF12
	keyCount // number of keys, not a key
)

// keyInfo ties a Key to its glfw key and its printable name.
type keyInfo struct {
	glfw glfw.Key
	name string
}

// keyTable is indexed by Key.
var keyTable = [keyCount]keyInfo{
	KeyUnknown: {glfw.KeyUnknown, "unknown"},
	KeyA:       {glfw.KeyA, "A"}, KeyB: {glfw.KeyB, "B"}, KeyC: {glfw.KeyC, "C"},
	KeyD: {glfw.KeyD, "D"}, KeyE: {glfw.KeyE, "E"}, KeyF: {glfw.KeyF, "F"},
	KeyG: {glfw.KeyG, "G"}, KeyH: {glfw.KeyH, "H"}, KeyI: {glfw.KeyI, "I"},
	KeyJ: {glfw.KeyJ, "J"}, KeyK: {glfw.KeyK, "K"}, KeyL: {glfw.KeyL, "L"},
	KeyM: {glfw.KeyM, "M"}, KeyN: {glfw.KeyN, "N"}, KeyO: {glfw.KeyO, "O"},
	KeyP: {glfw.KeyP, "P"}, KeyQ: {glfw.KeyQ, "Q"}, KeyR: {glfw.KeyR, "R"},
	KeyS: {glfw.KeyS, "S"}, KeyT: {glfw.KeyT, "T"}, KeyU: {glfw.KeyU, "U"},
	KeyV: {glfw.KeyV, "V"}, KeyW: {glfw.KeyW, "W"}, KeyX: {glfw.KeyX, "X"},
	KeyY: {glfw.KeyY, "Y"}, KeyZ: {glfw.KeyZ, "Z"},
	Key0: {glfw.Key0, "0"}, Key1: {glfw.Key1, "1"}, Key2: {glfw.Key2, "2"},
	Key3: {glfw.Key3, "3"}, Key4: {glfw.Key4, "4"}, Key5: {glfw.Key5, "5"},
	Key6: {glfw.Key6, "6"}, Key7: {glfw.Key7, "7"}, Key8: {glfw.Key8, "8"},
	Key9:            {glfw.Key9, "9"},
	KeySpace:        {glfw.KeySpace, "Space"},
	KeyLeftBracket:  {glfw.KeyLeftBracket, "["},
	KeyRightBracket: {glfw.KeyRightBracket, "]"},
	KeyPeriod:       {glfw.KeyPeriod, "."},
	KeyComma:        {glfw.KeyComma, ","},
	KeyMinus:        {glfw.KeyMinus, "-"},
	KeyEqual:        {glfw.KeyEqual, "="},
	KeySlash:        {glfw.KeySlash, "/"},
	KeySemicolon:    {glfw.KeySemicolon, ";"},
	KeyBackspace:    {glfw.KeyBackspace, "Backspace"},
	KeyEnter:        {glfw.KeyEnter, "Enter"},
	KeyTab:          {glfw.KeyTab, "Tab"},
	KeyEscape:       {glfw.KeyEscape, "Esc"},
	KeyUp:           {glfw.KeyUp, "Up"},
	KeyDown:         {glfw.KeyDown, "Down"},
	KeyLeft:         {glfw.KeyLeft, "Left"},
	KeyRight:        {glfw.KeyRight, "Right"},
	KeyPageUp:       {glfw.KeyPageUp, "PageUp"},
	KeyPageDown:     {glfw.KeyPageDown, "PageDown"},
	KeyHome:         {glfw.KeyHome, "Home"},
	KeyEnd:          {glfw.KeyEnd, "End"},
	KeyLeftShift:    {glfw.KeyLeftShift, "LeftShift"},
	KeyRightShift:   {glfw.KeyRightShift, "RightShift"},
	KeyLeftControl:  {glfw.KeyLeftControl, "LeftCtrl"},
	KeyRightControl: {glfw.KeyRightControl, "RightCtrl"},
	KeyF1:           {glfw.KeyF1, "F1"}, KeyF2: {glfw.KeyF2, "F2"}, KeyF3: {glfw.KeyF3, "F3"},
	KeyF4: {glfw.KeyF4, "F4"}, KeyF5: {glfw.KeyF5, "F5"}, KeyF6: {glfw.KeyF6, "F6"},
	KeyF7: {glfw.KeyF7, "F7"}, KeyF8: {glfw.KeyF8, "F8"}, KeyF9: {glfw.KeyF9, "F9"},
	KeyF10: {glfw.KeyF10, "F10"}, KeyF11: {glfw.KeyF11, "F11"}, KeyF12: {glfw.KeyF12, "F12"},
}

// fromGLFW maps glfw key codes to Keys; built from keyTable.
var fromGLFW = func() map[glfw.Key]Key {
	m := make(map[glfw.Key]Key, len(keyTable))
	for k, info := range keyTable {
		if Key(k) != KeyUnknown {
			m[info.glfw] = Key(k)
		}
	}
	return m
}()

// keyFromGLFW returns the Key for a glfw key code, or KeyUnknown.
func keyFromGLFW(g glfw.Key) Key {
	return fromGLFW[g]
}

// glfwKey returns the glfw key code of k, or glfw.KeyUnknown.
func (k Key) glfwKey() glfw.Key {
	if k <= KeyUnknown || k >= keyCount {
		return glfw.KeyUnknown
	}
	return keyTable[k].glfw
}

// String returns the key's label as printed on a US keyboard, e.g. "W",
// "Space", "[" or "F12".
func (k Key) String() string {
	if k < 0 || k >= keyCount {
		return "unknown"
	}
	return keyTable[k].name
}

// KeyNamed returns the key whose label (String) is name, and false if no
// key has it.
func KeyNamed(name string) (Key, bool) {
	for k := KeyUnknown + 1; k < keyCount; k++ {
		if keyTable[k].name == name {
			return k, true
		}
	}
	return KeyUnknown, false
}
