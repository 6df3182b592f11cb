// Package loader builds graph.CSR values: it reads every common graph file format (plain or
// gzip-compressed), generates synthetic graphs, and saves and loads the fast binary cache
// format .gwg. Errors name the file, the line (or byte offset) and what was expected.
//
// Formats, detected by extension and then by content (Options.Format overrides):
//
//	mtx     Matrix Market coordinate (pattern, integer, real; general, symmetric,
//	        skew-symmetric), 1-based; symmetric matrices are undirected
//	snap    SNAP-style edge list (.txt .tsv .csv .edges ...): "U V" or "U V W" separated by
//	        spaces, tabs or commas, '#' and '%' comments, CRLF, an optional header line,
//	        columns after the weight ignored (KONECT, temporal SNAP); 0-based, directed
//	el wel  GAPBS edge lists, unweighted and weighted; 0-based, directed
//	dimacs  DIMACS shortest paths .gr ("p sp N M", "a U V W"); 1-based, directed
//	pace    PACE .gr ("p tw N M", "U V"); 1-based, undirected
//	metis   METIS .graph ("N M [FMT [NCON]]", one adjacency line per vertex, optional vertex
//	        and edge weights); 1-based, undirected
//	gwg     the binary cache (see WriteGWG)
//
// An edge list (snap, el, wel, or a file named like one) refuses the header of another text
// format, naming its line and the format= to say: a Matrix Market banner, a DIMACS or PACE
// problem line, and a first line shaped unlike the lines after it (a size line, a METIS
// header); read as edges they would give a plausible but wrong graph.
//
// Every format may be gzip-compressed (detected by its magic bytes). Vertices keep the ids of
// their file through graph.CSR.IDs, while the engines number them 0..V-1: 1-based files are
// shifted (IDs.Base); a SNAP edge list names only the vertices that appear in it, so sparse ids
// are compacted in order (IDs.Labels maps back) and ids contiguous from k are shifted by k;
// formats that state a vertex count, and GAPBS .el/.wel files, keep ids without edges as
// isolated vertices. base= overrides: the ids are then numbers from that base. Self-loops and duplicate edges are dropped by default (the
// lowest weight of duplicates is kept) and counted in graph.Origin.
//
// Text files are parsed on all cores: one goroutine cuts the input into chunks of whole
// lines, the others parse them with hand-written number parsing into blocks of edges (sources
// run-length encoded when the file lists edges by source), and the parallel builder (see
// buildCSR) turns the blocks into a CSR. Memory is checked before parsing (from the file
// size) and before building (from the counts); a graph that would not fit is refused with
// both numbers.
package loader
