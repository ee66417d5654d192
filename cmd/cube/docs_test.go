package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/cubelab/cube/server"
	"github.com/cubelab/cube/session"
)

// The documents whose commands and shape the tests below check, relative to
// this package: the README and every page of docs/ (docs/reference too).
func docFiles(t *testing.T) []string {
	t.Helper()
	files := []string{"../../README.md"}
	for _, pattern := range []string{"../../docs/*.md", "../../docs/*/*.md"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	sort.Strings(files[1:])
	if len(files) < 2 {
		t.Fatal("no pages in docs/")
	}
	return files
}

// docSpan is a piece of a document that may quote a command: a line of a
// code block, or an inline code span.
type docSpan struct {
	line int // 1-based line where it starts
	text string
}

// codeSpans splits a Markdown document into the lines of its code blocks
// (fenced, or indented by four spaces after a blank line) and its inline
// code spans; a paragraph's lines are joined first, so that a span that
// wraps across lines is read whole. A table row is its own paragraph.
func codeSpans(doc string) []docSpan {
	var spans []docSpan
	lines := strings.Split(doc, "\n")
	var para []string
	paraStart := 0
	flush := func() {
		if len(para) > 0 {
			text := strings.Join(para, " ")
			for _, m := range regexp.MustCompile("`+([^`]+)`+").FindAllStringSubmatch(text, -1) {
				spans = append(spans, docSpan{paraStart, m[1]})
			}
		}
		para = nil
	}
	fenced, indented := false, false
	for i, l := range lines {
		n := i + 1
		trimmed := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(trimmed, "```"):
			flush()
			fenced = !fenced
		case fenced:
			spans = append(spans, docSpan{n, l})
		case trimmed == "":
			flush()
			indented = false
		case (indented || len(para) == 0) && (strings.HasPrefix(l, "    ") || strings.HasPrefix(l, "\t")):
			flush()
			indented = true
			spans = append(spans, docSpan{n, l})
		case strings.HasPrefix(trimmed, "|"):
			flush()
			para, paraStart = []string{l}, n
			flush()
		default:
			if len(para) == 0 {
				paraStart = n
			}
			para = append(para, l)
		}
	}
	flush()
	return spans
}

// cubeCommand matches where a quoted command starts: the word cube at the
// start of the text or after a space, a pipe, a parenthesis or a semicolon,
// followed by a space or the end (./cmd/cube and /tmp/cube are paths).
var cubeCommand = regexp.MustCompile(`(^|[\s|;&(])cube(\s|$)`)

// printed matches the first word of a line cube prints rather than a
// command: "cube window: no display ..." and "cube v0.1.0 (revision ...)".
var printed = regexp.MustCompile(`^([a-z]+:|v?[0-9])`)

// quotedCommands returns the argument lists of every `cube ...` command in a
// span: the words after cube, up to a shell separator or a comment.
// Brackets of optional parts ([-quantize]) are dropped.
func quotedCommands(text string) [][]string {
	var cmds [][]string
	for _, loc := range cubeCommand.FindAllStringIndex(text, -1) {
		rest := text[loc[1]:]
		if end := strings.IndexAny(rest, "|;#)`"); end >= 0 {
			rest = rest[:end]
		}
		if end := strings.Index(rest, "&&"); end >= 0 {
			rest = rest[:end]
		}
		var args []string
		for _, w := range strings.Fields(rest) {
			w = strings.Trim(w, "[],")
			if w != "" {
				args = append(args, w)
			}
		}
		cmds = append(cmds, args)
	}
	return cmds
}

// flagsOf returns the flags a subcommand defines, read from its -h, which
// lists the flag set the command builds; ok is false for a window in a
// build without cgo, which cannot say.
func flagsOf(t *testing.T, cache map[string]map[string]bool, cmd string) (map[string]bool, bool) {
	if f, ok := cache[cmd]; ok {
		return f, f != nil
	}
	code, _, errs := runCube(cmd, "-h")
	if cmd == "window" && strings.Contains(errs, "built without cgo") {
		cache[cmd] = nil
		return nil, false
	}
	if code != 0 {
		t.Fatalf("cube %s -h: exit %d: %s", cmd, code, errs)
	}
	flags := map[string]bool{"h": true, "help": true}
	for _, m := range regexp.MustCompile(`(?m)^  -([a-z0-9-]+)`).FindAllStringSubmatch(errs, -1) {
		flags[m[1]] = true
	}
	cache[cmd] = flags
	return flags, true
}

// checkCommand says what is wrong with one quoted command: nothing when
// it parses.
func checkCommand(t *testing.T, cache map[string]map[string]bool, args []string) []string {
	names := map[string]bool{"help": true}
	for _, c := range commands() {
		names[c.name] = true
	}
	cmd := "window"
	switch {
	case len(args) > 0 && (args[0] == "-version" || args[0] == "--version"):
		return nil
	case len(args) > 0 && (printed.MatchString(args[0]) || args[0] == strings.ToUpper(args[0]) && !strings.HasPrefix(args[0], "-")):
		return nil // output, or a placeholder: cube COMMAND -h
	case len(args) > 0 && !strings.HasPrefix(args[0], "-"):
		cmd, args = args[0], args[1:]
		if !names[cmd] {
			return []string{"no subcommand " + cmd}
		}
	}
	if cmd == "help" {
		if len(args) > 0 && !names[args[0]] && args[0] != strings.ToUpper(args[0]) {
			return []string{"no subcommand " + args[0]}
		}
		return nil
	}
	flags, ok := flagsOf(t, cache, cmd)
	if !ok {
		return nil
	}
	var bad []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") || a == "-" || regexp.MustCompile(`^-[0-9.]`).MatchString(a) {
			continue // an argument or a value
		}
		name := strings.TrimLeft(a, "-")
		if i := strings.IndexByte(name, '='); i >= 0 {
			name = name[:i]
		}
		if !flags[name] {
			bad = append(bad, "cube "+cmd+" has no flag -"+name)
		}
	}
	return bad
}

// TestDocsCommandsParse: every `cube ...` command quoted in README.md and
// docs/ (code blocks and inline code) names a subcommand that exists, and
// every flag it uses is one that subcommand defines.
func TestDocsCommandsParse(t *testing.T) {
	cache := map[string]map[string]bool{}
	checked := 0
	for _, file := range docFiles(t) {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range codeSpans(string(b)) {
			for _, args := range quotedCommands(s.text) {
				checked++
				for _, p := range checkCommand(t, cache, args) {
					t.Errorf("%s:%d: %s (in %q)", strings.TrimPrefix(file, "../../"), s.line, p, strings.TrimSpace(s.text))
				}
			}
		}
	}
	t.Logf("%d quoted commands checked", checked)
	if checked < 50 {
		t.Errorf("found %d quoted commands, want many more: is the parsing of the documents broken?", checked)
	}
}

// TestDocsCommandCheckFails: the check above finds a flag that does not
// exist, a subcommand that does not exist, and a command that wraps inside
// an inline span.
func TestDocsCommandCheckFails(t *testing.T) {
	cache := map[string]map[string]bool{}
	doc := "Run `cube sim -preset bad\n-no-such-flag 3`, then\n\n    cube nosuch -x\n\n| a | `cube bench -scene tower -bodies 20 -sleep=false` |\n"
	var got []string
	for _, s := range codeSpans(doc) {
		for _, args := range quotedCommands(s.text) {
			got = append(got, checkCommand(t, cache, args)...)
		}
	}
	want := []string{"cube sim has no flag -no-such-flag", "no subcommand nosuch"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestDocsShape: the README fits on a few screens (at most 250 lines), and
// no line of the README or of docs/ runs over 300 characters outside code
// blocks and tables.
func TestDocsShape(t *testing.T) {
	for _, file := range docFiles(t) {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(file, "../../")
		lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
		if name == "README.md" && len(lines) > 250 {
			t.Errorf("README.md has %d lines, want at most 250: move the detail to docs/", len(lines))
		}
		for _, p := range longLines(lines) {
			t.Errorf("%s:%d: %d characters, want at most 300 outside code blocks and tables", name, p[0], p[1])
		}
	}
}

// longLines returns the line numbers and lengths (in characters) of the
// lines over 300 characters that are neither in a fenced or indented code
// block nor a table row.
func longLines(lines []string) [][2]int {
	var long [][2]int
	fenced, prevBlank := false, true
	for i, l := range lines {
		trimmed := strings.TrimSpace(l)
		code := fenced || strings.HasPrefix(trimmed, "```") || (prevBlank && strings.HasPrefix(l, "    "))
		if strings.HasPrefix(trimmed, "```") {
			fenced = !fenced
		}
		prevBlank = trimmed == "" || (prevBlank && strings.HasPrefix(l, "    "))
		if code || strings.HasPrefix(trimmed, "|") {
			continue
		}
		if n := len([]rune(l)); n > 300 {
			long = append(long, [2]int{i + 1, n})
		}
	}
	return long
}

// TestDocsShapeFails: a long prose line is found, a long table row or code
// line is not.
func TestDocsShapeFails(t *testing.T) {
	long := strings.Repeat("x", 301)
	lines := []string{"text", long, "", "    " + long, "", "| " + long + " |", "```", long, "```", long}
	got := longLines(lines)
	if len(got) != 2 || got[0][0] != 2 || got[1][0] != 10 {
		t.Errorf("got %v, want lines 2 and 10", got)
	}
}

// TestSimJSONKeysDocumented: every key `cube sim -json` can print (a summary
// with players, the server's counters and the predicted overlap filled in)
// has a row in docs/reference/sim-json.md.
func TestSimJSONKeysDocumented(t *testing.T) {
	b, err := os.ReadFile("../../docs/reference/sim-json.md")
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	var sum session.Summary
	sum.Interrupted, sum.SyncTests, sum.Verdict = true, 1, "in_sync"
	sum.Predicted = &session.Overlap{}
	sum.Server = &server.ServerSummary{}
	sum.Players = []session.Summary{{}}
	raw, err := json.Marshal(sum)
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil {
		t.Fatal(err)
	}
	var keys []string
	var walk func(prefix string, o map[string]any)
	walk = func(prefix string, o map[string]any) {
		for k, v := range o {
			if sub, ok := v.(map[string]any); ok {
				walk(prefix+k+".", sub)
				continue
			}
			keys = append(keys, prefix+k)
		}
	}
	walk("", obj)
	if len(keys) < 90 {
		t.Fatalf("found %d keys, want every key of the summary", len(keys))
	}
	for _, k := range keys {
		// A row names a key whole (`final.tick`) or as a sibling of the one
		// before it (`.p99`, after `position_error_m.mean`).
		last := k[strings.LastIndexByte(k, '.')+1:]
		if !strings.Contains(page, "`"+k+"`") && !(strings.Contains(k, ".") && strings.Contains(page, "`."+last+"`")) {
			t.Errorf("docs/reference/sim-json.md has no row for %s", k)
		}
	}
}

// TestDocsLinks: every relative link of the README and docs/ names a file
// that exists and, with a #fragment, a heading of that file (as GitHub
// makes an anchor of it: lower case, punctuation dropped, spaces to
// hyphens).
func TestDocsLinks(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)#\s]*)(#[^)\s]*)?\)`)
	heading := regexp.MustCompile(`(?m)^#+ (.*)$`)
	anchors := func(file string) map[string]bool {
		b, err := os.ReadFile(file)
		if err != nil {
			return nil
		}
		set := map[string]bool{}
		for _, m := range heading.FindAllStringSubmatch(string(b), -1) {
			set[anchorOf(m[1])] = true
		}
		return set
	}
	for _, file := range docFiles(t) {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(b), -1) {
			path, frag := m[1], strings.TrimPrefix(m[2], "#")
			if strings.Contains(path, "://") {
				continue
			}
			target := file
			if path != "" {
				target = filepath.Join(filepath.Dir(file), path)
			}
			if _, err := os.Stat(target); err != nil {
				t.Errorf("%s: link to %s: %v", strings.TrimPrefix(file, "../../"), path, err)
				continue
			}
			if frag != "" && strings.HasSuffix(target, ".md") && !anchors(target)[frag] {
				t.Errorf("%s: link to %s#%s: no such heading", strings.TrimPrefix(file, "../../"), path, frag)
			}
		}
	}
	if got := anchorOf("Release builds: Windows and macOS"); got != "release-builds-windows-and-macos" {
		t.Errorf("anchorOf: %q", got)
	}
}

// anchorOf is the anchor GitHub gives a heading.
func anchorOf(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
