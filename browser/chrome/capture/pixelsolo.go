package capture

import (
	"context"
	"errors"
	"image"
)

// Texts judged one at a time: those whose boxes overlap go in different
// rounds, each round one screenshot.

// solo judges again each shown text whose boxes overlap those of another
// parent's texts: there the batch cannot say whose change it saw. Parents
// whose texts do not overlap share a round, one screenshot each.
func (r *pixelRun) solo(ctx context.Context, out []PixelVerdict) error {
	overlaps := r.overlaps()
	want := map[int][]int{} // parent → its probes to judge again
	for i, o := range overlaps {
		if out[i] == PixelShown && len(o) > 0 {
			want[r.parent[i]] = append(want[r.parent[i]], i)
		}
	}
	rounds := r.rounds(want, overlaps)
	for n, round := range rounds {
		if n == maxSoloRounds {
			for _, k := range round {
				for _, i := range want[k] {
					out[i] = PixelUnsure
				}
			}
			continue
		}
		if err := r.soloRound(ctx, round, want, overlaps, out); err != nil {
			return err
		}
	}
	return nil
}

// overlaps lists, per probe, the probes of other parents whose device
// rects share a pixel with its own.
func (r *pixelRun) overlaps() [][]int {
	out := make([][]int, len(r.rects))
	for i := range r.rects {
		for j := i + 1; j < len(r.rects); j++ {
			if r.found(i) && r.found(j) && r.parent[i] != r.parent[j] && meet(r.rects[i], r.rects[j]) {
				out[i] = append(out[i], j)
				out[j] = append(out[j], i)
			}
		}
	}
	return out
}

func meet(a, b []image.Rectangle) bool {
	for _, x := range a {
		for _, y := range b {
			if x.Overlaps(y) {
				return true
			}
		}
	}
	return false
}

// rounds colours the wanted parents greedily: a parent joins the first
// round holding no parent whose texts overlap its own. Rounds past the
// cap are returned whole (their texts become unsure).
func (r *pixelRun) rounds(want map[int][]int, overlaps [][]int) [][]int {
	// Which parents each parent's texts overlap, over all its probes.
	clash := map[int]map[int]bool{}
	for i, o := range overlaps {
		for _, j := range o {
			if clash[r.parent[i]] == nil {
				clash[r.parent[i]] = map[int]bool{}
			}
			clash[r.parent[i]][r.parent[j]] = true
		}
	}
	var rounds [][]int
	for k := range r.parents {
		if want[k] == nil {
			continue
		}
		placed := false
		for n := 0; n < len(rounds) && n < maxSoloRounds && !placed; n++ {
			if !clashesWith(clash[k], rounds[n]) {
				rounds[n], placed = append(rounds[n], k), true
			}
		}
		if !placed {
			if len(rounds) <= maxSoloRounds {
				rounds = append(rounds, nil)
			}
			rounds[len(rounds)-1] = append(rounds[len(rounds)-1], k)
		}
	}
	return rounds
}

func clashesWith(clash map[int]bool, round []int) bool {
	for _, k := range round {
		if clash[k] {
			return true
		}
	}
	return false
}

// soloRound makes one round's parents transparent, the parents of texts
// overlapping theirs pinned to their own colours (so that one that
// inherits its colour from a round parent keeps it), and judges the
// round's wanted texts against the untouched page.
func (r *pixelRun) soloRound(ctx context.Context, round []int, want map[int][]int, overlaps [][]int, out []PixelVerdict) error {
	hide, pin := make([]bool, len(r.parents)), make([]bool, len(r.parents))
	for _, k := range round {
		hide[k] = true
	}
	for i := range r.rects {
		if r.found(i) && hide[r.parent[i]] {
			for _, j := range overlaps[i] {
				pin[r.parent[j]] = !hide[r.parent[j]]
			}
		}
	}
	shot, err := r.hiddenShot(ctx, hide, pin)
	if err != nil {
		return err
	}
	if shot.Bounds() != r.before.Bounds() {
		return errors.New("the viewport changed size during the probe")
	}
	for _, k := range round {
		for _, i := range want[k] {
			out[i] = PixelHidden
			if changed(r.before, shot, r.rects[i], minChangedPixels) >= minChangedPixels {
				out[i] = PixelShown
			}
		}
	}
	return nil
}
