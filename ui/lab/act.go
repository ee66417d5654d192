package lab

import (
	"github.com/cubelab/cube/game"
	"github.com/cubelab/cube/netsim"
	"github.com/cubelab/cube/predict"
	"github.com/cubelab/cube/session/summarytext"
)

// Act performs a key's action. It returns an error only for a session that
// cannot be rebuilt.
func (l *Lab) Act(a Action) error {
	if a >= ActPreset1 && a <= ActPreset7 {
		p, err := netsim.PresetByKey(int(a-ActPreset1) + 1)
		if err != nil {
			return err
		}
		return l.play.SetPreset(p)
	}
	if what, ok := remoteNote(a); ok {
		if l.local == nil {
			where := "the server is remote"
			if r, ok := l.play.(*Remote); ok {
				where = "the server at " + r.Addr + " is remote"
			}
			l.Say(what + ": in process only; " + where)
			return nil
		}
		return l.actInProcess(a)
	}
	if a >= ActContacts && a <= ActVelocities {
		k := Layer(a - ActContacts)
		l.Debug.On[k] = !l.Debug.On[k]
		return nil
	}
	c := l.Client()
	switch a {
	case ActCorrections:
		c.Config.Corrections = !c.Config.Corrections
	case ActSmoothing:
		c.Smooth.Enabled = !c.Smooth.Enabled
		c.Smooth.Reset()
	case ActRedundancy:
		c.Config.Redundancy = !c.Config.Redundancy
	case ActSyncTest:
		if c.Config.SyncTest > 0 {
			c.Config.SyncTest = 0
		} else {
			c.Config.SyncTest = max(l.syncTest, defaultSyncTest)
		}
	case ActSnapshotCube:
		l.Show.Snapshot = !l.Show.Snapshot
	case ActPredictedCube:
		l.Show.Predicted = !l.Show.Predicted
	case ActResetCamera:
		l.CameraReset = true
	case ActOverlay:
		l.HideOverlay = !l.HideOverlay
	case ActHelp:
		l.ShowHelp = !l.ShowHelp
	}
	if p := l.local; p != nil && a >= ActCorrections && a <= ActSyncTest {
		// The session in process keeps the client's settings for resets.
		p.base.Client.Corrections, p.base.Client.Redundancy, p.base.Client.SyncTest = c.Config.Corrections, c.Config.Redundancy, c.Config.SyncTest
		p.base.Smoothing = c.Smooth.Enabled
	}
	return nil
}

// actInProcess performs a key's action on the server or the session in
// this process.
func (l *Lab) actInProcess(a Action) error {
	p := l.local
	switch a {
	case ActSlower, ActFaster:
		hz := p.sess.Config.SnapshotHz
		if a == ActSlower && hz > 1 {
			hz /= 2
		} else if a == ActFaster && hz < 64 {
			hz *= 2
		}
		p.base.SnapshotHz = hz
		return p.sess.SetSnapshotRate(hz)
	case ActServerCube:
		l.Show.Server = !l.Show.Server
	case ActNudge:
		p.sess.Nudge()
	case ActPause:
		l.Paused = !l.Paused
	case ActStep:
		if l.Paused {
			return l.Tick(l.keys)
		}
	case ActReset:
		return l.reset()
	case ActNextScene:
		p.base.Scene = nextScene(p.base.Scene)
		p.base.Options = game.Options{Players: p.base.Options.Players, Quantize: p.base.Options.Quantize}
		if p.base.Scene == "drop" {
			p.base.Options.Bodies = p.dropBodies
		}
		l.CameraReset = true
		return l.reset()
	case ActSyncMode:
		if p.base.Client.Mode == predict.StateSync {
			p.base.Client.Mode = predict.InputSync
		} else {
			p.base.Client.Mode = predict.StateSync
		}
		l.Say(summarytext.SyncName(p.base.Client.Mode) + ": the session restarts")
		return l.reset()
	}
	return nil
}
