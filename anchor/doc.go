// Package anchor is the comment resolver: it turns a quoted snippet into an
// exact location in a change parsed by package udiff. It is pure: values in,
// values out; no exec, no network, no file system.
package anchor
