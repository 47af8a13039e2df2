package fuse

// countNotes adds a note for each kind of line the view left out unseen
// (fused view only): hidden text withheld, invisible targets, and
// elements under too many stacked boxes to check for covers; then, in
// either view (both remove them), how many characters that draw nothing
// were removed.
func (v *view) countNotes(roots []*Node) []*Node {
	if v.opts.Mode == ModeFused {
		roots = v.unseenNotes(roots)
	}
	if v.counts.InvisibleChars > 0 {
		roots = append(roots, invisibleCharsNote(v.counts.InvisibleChars))
	}
	return roots
}

func (v *view) unseenNotes(roots []*Node) []*Node {
	if v.counts.Withheld > 0 {
		roots = append(roots, withheldNote(v.counts.Withheld, v.counts.Unsure))
	}
	if v.counts.CutOff > 0 {
		roots = append(roots, &Node{Role: "note", Text: plural(v.counts.CutOff, "text") + " cut off where a box hides its overflow (printed up to the cut, ending in …)"})
	}
	if v.counts.Invisible > 0 {
		roots = append(roots, invisibleNote(v.counts.Invisible))
	}
	if v.counts.Unchecked > 0 {
		roots = append(roots, &Node{Role: "note", Text: plural(v.counts.Unchecked, "element") + " not checked for covers (too many boxes stacked on one spot); refs there may be covered"})
	}
	return roots
}
