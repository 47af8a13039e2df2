package chrome

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/axfuse/axfuse/browser"
	"github.com/axfuse/axfuse/domsnap"
)

// TestPaintRulesFindTheLinksVisitsRecolour: the links whose colours change
// once visited are found with their colours, in the browser, from the
// rules that match them; "?" is a colour that cannot be known (one a
// :link rule gave that nothing of its rank replaces, one a custom
// property the root does not hold gives). A rule too tangled to match
// makes every link of the document unknown.
func TestPaintRulesFindTheLinksVisitsRecolour(t *testing.T) {
	requireBrowser(t)
	for _, tc := range []struct {
		name, css, body string
		want            map[string]string // link id → its colours, sorted ("" none)
		unknown         bool
	}{
		{name: "by selector",
			css:  `a:visited { color: #111 } .dark a:visited { color: #ccc } p.x a:visited span { color: white }`,
			body: `<a id=a href=/1>a</a><div class=dark><a id=b href=/2>b</a></div><p class=x><a id=c href=/3><span>c</span></a></p><span id=n>no link</span>`,
			want: map[string]string{"a": "rgb(17, 17, 17)", "b": "rgb(17, 17, 17) rgb(204, 204, 204)", "c": "rgb(17, 17, 17) rgb(255, 255, 255)"}},
		{name: "only links the rules match",
			css:  `.menu a:visited { color: white }`,
			body: `<a id=a href=/1>a</a><nav class=menu><a id=b href=/2>b</a></nav>`,
			want: map[string]string{"a": "", "b": "rgb(255, 255, 255)"}},
		{name: ":link replaced by a :visited rule of its rank or above",
			css:  `a:link { color: #111 } a:visited { color: #222 } a.lone:link { color: #333 } a.pair:link, a.pair:visited { color: #444 }`,
			body: `<a id=a href=/1>a</a><a id=b class=lone href=/2>b</a><a id=c class=pair href=/3>c</a>`,
			want: map[string]string{"a": "rgb(34, 34, 34)", "b": "? rgb(34, 34, 34)", "c": "rgb(34, 34, 34) rgb(68, 68, 68)"}},
		{name: "!important outranks specificity",
			css:  `a:link { color: #111 !important } #x:visited { color: #222 }`,
			body: `<a id=x href=/1>x</a>`,
			want: map[string]string{"x": "? rgb(34, 34, 34)"}},
		{name: "nested, imported and in media rules",
			css:  `@media all { a.m:visited { color: #010101 } } a.n { color: black; &:visited { color: #020202 } } .o { a& { color: #111; } }`,
			body: `<a id=m class=m href=/1>m</a><a id=n class=n href=/2>n</a>`,
			want: map[string]string{"m": "rgb(1, 1, 1)", "n": "rgb(2, 2, 2)"}},
		{name: "a quoted :visited stays in its attribute",
			css:  `a[title=":visited"]:visited { color: #030303 }`,
			body: `<a id=q title=":visited" href=/1>q</a><a id=r title=other href=/2>r</a>`,
			want: map[string]string{"q": "rgb(3, 3, 3)", "r": ""}},
		{name: "a background or an unresolved property",
			css:  `a.bg:visited { background-color: #fff } a.v:visited { color: var(--nowhere) }`,
			body: `<a id=bg class=bg href=/1>bg</a><a id=v class=v href=/2>v</a>`,
			want: map[string]string{"bg": "?", "v": "?"}},
		{name: "layers rank otherwise",
			css:  `@layer base { a:visited { color: #111 } } a:link { color: #222 }`,
			body: `<a id=a href=/1>a</a>`,
			want: map[string]string{"a": "? rgb(17, 17, 17)"}},
		{name: ":not(:visited) turns the sets around",
			css:  `a:not(:visited) { color: #111 }`,
			body: `<a id=a href=/1>a</a>`, unknown: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab := pageTab(t, "<!doctype html><style>"+tc.css+"</style>"+tc.body, time.Minute)
			c, err := tab.CaptureWith(browser.CaptureOptions{Mode: domsnap.CaptureFull})
			if err != nil {
				t.Fatal(err)
			}
			doc := &c.Documents[0]
			if doc.VisitedUnknown != tc.unknown {
				t.Fatalf("visitedUnknown %v, want %v (colours %v, links %v)", doc.VisitedUnknown, tc.unknown, doc.VisitedColours, doc.VisitedLinks)
			}
			got := visitedByID(doc)
			for id, want := range tc.want {
				if got[id] != want {
					t.Errorf("link %s: colours %q, want %q", id, got[id], want)
				}
			}
			for id := range got {
				if _, ok := tc.want[id]; !ok && !tc.unknown {
					t.Errorf("element %s taken as a recoloured link: %q", id, got[id])
				}
			}
		})
	}
}

// visitedByID maps the id of each of doc's recoloured links to its
// colours, sorted and space-separated ("?" for an unknown one).
func visitedByID(doc *domsnap.Document) map[string]string {
	out := map[string]string{}
	for _, l := range doc.VisitedLinks {
		id, _ := doc.Nodes[l.Node].Attr("id")
		var cs []string
		for _, k := range l.Colours {
			if k < 0 {
				cs = append(cs, "?")
			} else {
				cs = append(cs, doc.VisitedColours[k])
			}
		}
		slices.Sort(cs)
		out[id] = strings.Join(slices.Compact(cs), " ")
	}
	return out
}
