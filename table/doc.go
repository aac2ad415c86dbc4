// Package table reads numeric and labelled tables from files into the
// memory a model uses: one flat []float64 per column, never a
// [][]float64 of rows.
//
//	t, err := table.ReadCSV("radon.csv")      // header names, types found per column
//	t                                          // a bounded HTML preview in the notebook
//	y := m.Data("y", t.Col("log_radon"))       // the column's memory, not a copy
//	X := m.Data("X", t.Matrix("floor", "uranium"))
//	county := t.Col("county")                  // a string column: codes and labels
//	m.Coords("county", county.Labels())        // codes: county.Ints()
//
//	w, err := table.OpenNPY("X.npy")           // memory-mapped where the layout allows
//	p, err := table.ReadParquet("radon.parquet") // a flat Parquet table
//
// Layout. ppl flattens a vector as its values and an [N K] matrix row by
// row (row-major), so a column is one contiguous []float64 and a matrix
// view is row-major. A table keeps each column contiguous (column-major
// storage): a column handed to m.Data is used in place. A Matrix view of
// several columns is interleaved once, except where the file already
// holds the rows in that order (a C-order float64 .npy, whose matrix view
// is the mapping itself). A Fortran-order float64 .npy is column-major on
// disk: each column is a slice of the mapping, no copy at all.
//
// Column types. A CSV column is numeric when its first non-empty value is
// a number; it is an int column while every value is an integer, a
// float64 column otherwise. A numeric column holding a value that is not
// a number is an error naming file:line:column (read it as labels with
// the option Strings). Empty fields and NA/NaN are missing: they read as
// NaN, and the column counts them (ppl refuses NaN data with a message
// naming the container). A string column becomes integer codes and
// labels in order of first appearance: the order in which the file
// introduces them, which streaming keeps without a second pass and which
// pandas' factorize(sort=False) also uses; Sorted() gives the labels in
// sorted order with codes to match, where a fixed order is wanted.
//
// Row ranges. ReadRows reads rows [lo, hi) of a file without reading the
// others where the format allows: a .npy's rows are at computed offsets;
// a CSV is scanned (its records must be parsed to be counted), from the
// nearest entry of a row index that a full read records (Source.Index).
// Source describes where a column or matrix view came from, so that
// another process (an MPI rank) can read its own rows of it.
//
// Memory maps. A float64 .npy is mapped privately (copy-on-write), so
// writing to a column never changes the file. The mapping is never
// unmapped: a column handed to a model must stay valid as long as the
// model, and the process cannot know when that ends. Its pages are the
// file's: the OS reads them when touched and drops them under memory
// pressure. Do not shorten or rewrite a file while it is mapped: a page
// that is gone ends the process (SIGBUS), as it would in any program
// (in a notebook, the kernel reports the crash of its interpreter
// process and goes on). Write a new file under a new name instead.
//
// Formats and why. CSV because every data set comes as CSV; .npy because
// it is the one widely written format whose bytes are the values in
// place, so a column is the file's memory; Parquet because pandas, Polars,
// Spark and Arrow write it (read through github.com/parquet-go/parquet-go,
// the smaller of the two well-kept Go readers: apache/arrow-go brings
// Arrow's whole tree). Parquet pages are compressed and encoded, so a
// Parquet table is decoded into memory, with the CSV reader's column
// types (booleans and integers as int columns, text as codes and labels);
// nested or repeated columns are refused. Arrow IPC files: convert them
// to Parquet or .npy (pyarrow.parquet.write_table, np.save).
//
// The package is a leaf: it imports neither ppl nor display. It renders
// itself in a notebook through the method set display looks for (HTML,
// String), and ppl accepts its Column and Matrix values.
package table
