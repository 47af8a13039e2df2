package report

import _ "embed"

// pageTemplate is the report. Figures carry their raw value in data-v (the
// sort key, and what tests compare with the JSON); marks carry the index
// of the missed target they outline in data-target.
//
//go:embed page.html.tmpl
var pageTemplate string

// detailTemplate is one page's detail in a split report: the page's
// section alone, with a link back to the index.
//
//go:embed detail.html.tmpl
var detailTemplate string
