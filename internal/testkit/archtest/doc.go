// Package archtest enforces docs/architecture.md: its package table says
// what each package and its tests may import, its layering list that no
// import runs back up, only tests import a test kit, the public packages
// expose no internal types, and no package outgrows the size limit. It
// holds only tests.
package archtest
