package main

import (
	"encoding"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// The output formats of a subcommand that prints a table.
const (
	formatText = "text"
	formatJSON = "json"
	formatCSV  = "csv"
)

// formatFlags are -format and its shorthand -json, of the flag set fs.
type formatFlags struct {
	format string
	json   bool
	fs     *flag.FlagSet
}

// addFormatFlags adds -format text|json|csv and -json to fs.
func addFormatFlags(fs *flag.FlagSet) *formatFlags {
	f := &formatFlags{fs: fs}
	fs.StringVar(&f.format, "format", formatText, "output: text (for reading), json (one object) or csv (the table, one row a line)")
	fs.BoolVar(&f.json, "json", false, "print one JSON object (as -format json)")
	return f
}

// get returns the chosen format: json when -json is set. -json with
// another -format given (text, as csv) is a usage error: one of the two
// would be ignored.
func (f *formatFlags) get() (string, error) {
	if f.json {
		given := false
		f.fs.Visit(func(fl *flag.Flag) { given = given || fl.Name == "format" })
		if given && f.format != formatJSON {
			return "", flagErrorf("-json and -format %s exclude each other: give -format json, or -format %s alone", f.format, f.format)
		}
		return formatJSON, nil
	}
	switch f.format {
	case formatText, formatJSON, formatCSV:
		return f.format, nil
	}
	return "", flagErrorf("-format %q: want text, json or csv", f.format)
}

// writeCSV writes rows, a slice of structs, as CSV: a header of the fields'
// JSON names, then one record a row, so that a table's CSV and JSON share
// their column names and units. Embedded structs are flattened; a field
// tagged json:"-" or unexported is left out; a struct field NAME (or a
// pointer to one, empty cells when nil) becomes columns NAME_FIELD; a
// slice or array field is one cell, its elements joined by ';'. Numbers
// are written as JSON writes them.
func writeCSV(w io.Writer, rows any) error {
	v := reflect.ValueOf(rows)
	if v.Kind() != reflect.Slice || v.Type().Elem().Kind() != reflect.Struct {
		return fmt.Errorf("writeCSV: want a slice of structs, have %T", rows)
	}
	cw := csv.NewWriter(w)
	cols := csvColumns(v.Type().Elem(), nil, "")
	header := make([]string, len(cols))
	for i, c := range cols {
		header[i] = c.name
	}
	if err := cw.Write(header); err != nil {
		return err
	}
	record := make([]string, len(cols))
	for i := range v.Len() {
		row := v.Index(i)
		for j, c := range cols {
			record[j] = ""
			if f, err := row.FieldByIndexErr(c.index); err == nil { // err: through a nil pointer
				record[j] = csvCell(f)
			}
		}
		if err := cw.Write(record); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

var stringer = reflect.TypeFor[fmt.Stringer]()

// A csvColumn is one field of a row struct: its JSON name and where it is.
type csvColumn struct {
	name  string
	index []int
}

// csvColumns lists the columns of struct type t, whose fields sit at index
// and whose names take prefix: a struct field (or pointer to one) is
// flattened into NAME_FIELD columns.
func csvColumns(t reflect.Type, index []int, prefix string) []csvColumn {
	var cols []csvColumn
	for i := range t.NumField() {
		f := t.Field(i)
		at := append(append([]int(nil), index...), i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			cols = append(cols, csvColumns(f.Type, at, prefix)...)
			continue
		}
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Struct && !ft.Implements(stringer) && !reflect.PointerTo(ft).Implements(stringer) {
			cols = append(cols, csvColumns(ft, at, prefix+name+"_")...)
			continue
		}
		cols = append(cols, csvColumn{prefix + name, at})
	}
	return cols
}

// formatFloat writes f as encoding/json does: the shortest text that reads
// back to f, without an exponent from 1e-6 to 1e21.
func formatFloat(f float64) string {
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// csvCell formats one value: numbers in full precision, a nil pointer as
// an empty cell, a slice's elements joined by ';'.
func csvCell(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return ""
		}
		return csvCell(v.Elem())
	case reflect.Float32, reflect.Float64:
		return formatFloat(v.Float())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.FormatUint(v.Uint(), 10)
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.String:
		return v.String()
	case reflect.Slice, reflect.Array:
		parts := make([]string, v.Len())
		for i := range parts {
			parts[i] = csvCell(v.Index(i))
		}
		return strings.Join(parts, ";")
	}
	if s, ok := v.Interface().(fmt.Stringer); ok {
		return s.String()
	}
	return fmt.Sprint(v.Interface())
}

// finiteJSON returns v as encoding/json would see it, with every float
// that is not finite replaced by nil (null): structs become jsonObjects of
// their fields in order, under their JSON names, following the json tags
// ("-", omitempty) and flattening embedded structs; a type with its own
// MarshalJSON or MarshalText is kept as it is.
func finiteJSON(v reflect.Value) any {
	if !v.IsValid() {
		return nil
	}
	if v.Type().Implements(jsonMarshaler) || v.Type().Implements(textMarshaler) {
		return v.Interface()
	}
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		if f := v.Float(); math.IsInf(f, 0) || math.IsNaN(f) {
			return nil
		}
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return finiteJSON(v.Elem())
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && (v.IsNil() || v.Type().Elem().Kind() == reflect.Uint8) {
			return v.Interface() // null, or []byte as base64
		}
		out := make([]any, v.Len())
		for i := range out {
			out[i] = finiteJSON(v.Index(i))
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return nil
		}
		out := make(map[string]any, v.Len())
		for it := v.MapRange(); it.Next(); {
			out[fmt.Sprint(it.Key().Interface())] = finiteJSON(it.Value())
		}
		return out
	case reflect.Struct:
		var o jsonObject
		o.add(v)
		return o
	}
	return v.Interface()
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// A jsonObject is a struct's fields for finiteJSON, in order.
type jsonObject struct {
	keys []string
	vals []any
}

// add appends the exported fields of struct v, as encoding/json names and
// omits them.
func (o *jsonObject) add(v reflect.Value) {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" && opts == "" {
			continue
		}
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			o.add(v.Field(i))
			continue
		}
		if !f.IsExported() {
			continue
		}
		fv := v.Field(i)
		if strings.Contains(","+opts+",", ",omitempty,") && jsonEmpty(fv) {
			continue
		}
		if name == "" {
			name = f.Name
		}
		o.keys = append(o.keys, name)
		o.vals = append(o.vals, finiteJSON(fv))
	}
}

// jsonEmpty is encoding/json's empty value, which omitempty leaves out.
func jsonEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Struct:
		return false
	}
	return v.IsZero()
}

// MarshalJSON writes the object's fields in order.
func (o jsonObject) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, k := range o.keys {
		if i > 0 {
			b = append(b, ',')
		}
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		vb, err := json.Marshal(o.vals[i])
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, kb...), ':'), vb...)
	}
	return append(b, '}'), nil
}
