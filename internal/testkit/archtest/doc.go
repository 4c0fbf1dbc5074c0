// Package archtest enforces docs/architecture.md: its package table says
// what each package may import, and the public packages expose no
// internal types. It holds only tests.
package archtest
