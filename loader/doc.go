// Package loader builds graph.CSR values: it reads every common graph file format (plain or
// gzip-compressed), generates synthetic graphs, and saves and loads the fast binary cache
// format .gwg. Errors name the file, the line (or byte offset) and what was expected.
package loader
