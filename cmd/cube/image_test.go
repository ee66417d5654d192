package main

import (
	"archive/tar"
	"bytes"
	"debug/elf"
	"encoding/json"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// ociFiles reads every file of an OCI archive (a tar of an OCI layout).
func ociFiles(t *testing.T, path string) map[string][]byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	files := map[string][]byte{}
	tr := tar.NewReader(f)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return files
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if h.Typeflag == tar.TypeReg {
			b, err := io.ReadAll(tr)
			if err != nil {
				t.Fatal(err)
			}
			files[strings.TrimPrefix(h.Name, "./")] = b
		}
	}
}

// blob returns the blob of digest "sha256:HEX" from an OCI layout.
func blob(t *testing.T, files map[string][]byte, digest string) []byte {
	t.Helper()
	b, ok := files["blobs/sha256/"+strings.TrimPrefix(digest, "sha256:")]
	if !ok {
		t.Fatalf("no blob %s in the image", digest)
	}
	return b
}

// TestImage: scripts/image.sh builds an OCI image with buildah whose
// config runs `cube server` as a non-root user with its UDP port exposed
// and the same port as its default -listen and deploy/agones's manifests;
// its one layer holds only the binary, which is static and prints its
// version. buildah is needed; scripts/deps.sh installs it, and CI (CI
// set) fails without it rather than skipping.
func TestImage(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the program and an image")
	}
	if _, err := exec.LookPath("buildah"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("buildah is not installed, though scripts/deps.sh installs it")
		}
		t.Skip("buildah is not installed (Debian package buildah; scripts/deps.sh installs it)")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "cube.tar")
	cmd := exec.Command("scripts/image.sh", out)
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), "BUILDAH_ROOT="+filepath.Join(dir, "buildah"))
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("scripts/image.sh: %v\n%s", err, b)
	}
	files := ociFiles(t, out)
	var index struct {
		Manifests []struct{ Digest string } `json:"manifests"`
	}
	if err := json.Unmarshal(files["index.json"], &index); err != nil || len(index.Manifests) != 1 {
		t.Fatalf("index.json %q: %v", files["index.json"], err)
	}
	var manifest struct {
		Config struct{ Digest string } `json:"config"`
		Layers []struct {
			MediaType string `json:"mediaType"`
			Digest    string `json:"digest"`
		} `json:"layers"`
	}
	if err := json.Unmarshal(blob(t, files, index.Manifests[0].Digest), &manifest); err != nil {
		t.Fatal(err)
	}
	var config struct {
		Architecture string `json:"architecture"`
		OS           string `json:"os"`
		Config       struct {
			User         string              `json:"User"`
			ExposedPorts map[string]struct{} `json:"ExposedPorts"`
			Entrypoint   []string            `json:"Entrypoint"`
			Cmd          []string            `json:"Cmd"`
		} `json:"config"`
	}
	if err := json.Unmarshal(blob(t, files, manifest.Config.Digest), &config); err != nil {
		t.Fatal(err)
	}
	c := config.Config
	if config.OS != "linux" || config.Architecture != runtime.GOARCH {
		t.Errorf("image for %s/%s, want linux/%s", config.OS, config.Architecture, runtime.GOARCH)
	}
	if !slices.Equal(c.Entrypoint, []string{"/cube", "server"}) {
		t.Errorf("entrypoint %q, want /cube server", c.Entrypoint)
	}
	uid, _, _ := strings.Cut(c.User, ":")
	if n, err := strconv.Atoi(uid); err != nil || n == 0 {
		t.Errorf("user %q, want a numeric non-root user", c.User)
	}
	f, err := parseServeFlags(c.Cmd, io.Discard)
	if err != nil {
		t.Fatalf("the image's arguments %q are not cube server's: %v", c.Cmd, err)
	}
	_, port, _ := net.SplitHostPort(f.listen)
	gs := readManifest[gameServerSpec](t, "gameserver.yaml")
	if _, ok := c.ExposedPorts[port+"/udp"]; !ok || len(c.ExposedPorts) != 1 || strconv.Itoa(gs.Spec.Ports[0].ContainerPort) != port {
		t.Errorf("exposed ports %v, -listen %s, the GameServer's containerPort %d: want one UDP port, the same", c.ExposedPorts, f.listen, gs.Spec.Ports[0].ContainerPort)
	}

	if len(manifest.Layers) != 1 || manifest.Layers[0].MediaType != "application/vnd.oci.image.layer.v1.tar" {
		t.Fatalf("layers %+v, want one uncompressed tar", manifest.Layers)
	}
	tr := tar.NewReader(bytes.NewReader(blob(t, files, manifest.Layers[0].Digest)))
	var names []string
	var bin []byte
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name)
		if strings.TrimPrefix(h.Name, "/") == "cube" && h.Typeflag == tar.TypeReg && h.FileInfo().Mode().Perm() == 0o755 {
			if bin, err = io.ReadAll(tr); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(names) != 1 || bin == nil {
		t.Fatalf("the layer holds %q, want only the executable cube", names)
	}
	path := filepath.Join(dir, "cube")
	if err := os.WriteFile(path, bin, 0o755); err != nil {
		t.Fatal(err)
	}
	ef, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ef.Close()
	for _, p := range ef.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("the binary has a dynamic loader: want a static CGO_ENABLED=0 build")
		}
	}
	v, err := exec.Command(path, "version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(v), "cube ") || !strings.Contains(string(v), "linux/"+runtime.GOARCH) {
		t.Errorf("the image's cube version: %v, %q", err, v)
	}
}
