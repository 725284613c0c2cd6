package nbcheck

import (
	"encoding/json"
	"fmt"
	"strings"
)

// notebook is the part of the nbformat 4 document that the check reads.
type notebook struct {
	NBFormat      int    `json:"nbformat"`
	NBFormatMinor int    `json:"nbformat_minor"`
	Cells         []cell `json:"cells"`
	Metadata      struct {
		NBCheck struct {
			Expect []Kind `json:"expect"`
		} `json:"nbcheck"`
	} `json:"metadata"`
}

type cell struct {
	ID             *string  `json:"id"` // nbformat 4.5 and later; nil when absent
	CellType       string   `json:"cell_type"`
	Source         text     `json:"source"`
	ExecutionCount *int     `json:"execution_count"`
	Outputs        []output `json:"outputs"`
}

type output struct {
	OutputType string          `json:"output_type"`
	Name       string          `json:"name"` // stream outputs: stdout or stderr
	Text       text            `json:"text"`
	Data       map[string]text `json:"data"`
	EName      string          `json:"ename"`
	EValue     string          `json:"evalue"`
}

// text is an nbformat multiline string: either one JSON string or an array of
// strings to be concatenated.
type text string

func (t *text) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*t = text(s)
		return nil
	}
	var parts []string
	if err := json.Unmarshal(b, &parts); err != nil {
		return fmt.Errorf("want a string or an array of strings, got %.40s", b)
	}
	*t = text(strings.Join(parts, ""))
	return nil
}
