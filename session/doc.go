// Package session runs a server (package server) and its clients (package
// predict) in one process, on one virtual clock, each client over its own
// simulated link (transport's in-process implementation over netsim): the
// code path a real network takes, reproducible from a seed.
//
// It holds the session itself (Session, Advance, the clients' turns side
// by side), the headless run loop and its summaries (Run, Summary), the
// traffic meter, the Endpoint that runs one client over any transport
// (shared with `cube client`), and fault injection (InjectNondeterminism).
//
// Nothing here reads a clock or uses a global random source: the caller
// drives time, so a run with a seed gives the same summary every time.
package session
