// Package doclint holds a test of the module's doc comments: the sentinel
// errors and fields they name exist. It has no code of its own.
package doclint
