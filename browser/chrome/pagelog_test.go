package chrome

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestPageLogKeepsEveryAnswer: a page sends 200 requests at once, half
// answered 404 and half redirected to a 200, and logs 200 numbered lines;
// every request is recorded with its final status (a response handled
// before its request once lost the status) and the console keeps its order.
func TestPageLogKeepsEveryAnswer(t *testing.T) {
	requireBrowser(t)
	const n = 100
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, `<!doctype html><title>log</title><p id=out>-</p><script>
const n = %d, all = [];
for (let i = 0; i < n; i++) {
  console.log('line', i);
  all.push(fetch('/missing/' + i, {cache: 'no-store'}), fetch('/moved/' + i, {cache: 'no-store'}));
  console.log('line', n + i);
}
Promise.allSettled(all).then(() => out.textContent = 'done');
</script>`, n)
		case strings.HasPrefix(r.URL.Path, "/moved/"):
			http.Redirect(w, r, "/ok/"+strings.TrimPrefix(r.URL.Path, "/moved/"), http.StatusFound)
		case strings.HasPrefix(r.URL.Path, "/ok/"):
			w.Write([]byte("ok"))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	tab := testTab(t, Options{CallTimeout: 20 * time.Second}, 90*time.Second)
	if err := tab.Navigate(srv.URL+"/", 0); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for evalIn[string](t, tab, `document.getElementById('out').textContent`) != "done" {
		if time.Now().After(deadline) {
			t.Fatal("the page's requests did not finish in 30 s")
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond) // the last events after the promises
	status := map[string]int{}
	for _, r := range tab.Requests() {
		path := strings.TrimPrefix(r.URL, srv.URL)
		if r.Status == 0 && r.Failed == "" {
			t.Errorf("%s %s has no status", r.Method, path)
		}
		if strings.HasPrefix(path, "/moved/") && status[path] != 0 {
			continue
		}
		status[path] = r.Status
	}
	for i := 0; i < n; i++ {
		for path, want := range map[string]int{fmt.Sprintf("/missing/%d", i): 404, fmt.Sprintf("/moved/%d", i): 302, fmt.Sprintf("/ok/%d", i): 200} {
			if status[path] != want {
				t.Errorf("%s: status %d, want %d", path, status[path], want)
			}
		}
	}
	var lines []string
	for _, m := range tab.ConsoleMessages() {
		if strings.HasPrefix(m.Text, "line ") {
			lines = append(lines, m.Text)
		}
	}
	if len(lines) != 2*n {
		t.Fatalf("%d console lines, want %d", len(lines), 2*n)
	}
	for i := 0; i < n; i++ {
		if lines[2*i] != fmt.Sprint("line ", i) || lines[2*i+1] != fmt.Sprint("line ", n+i) {
			t.Fatalf("console out of order at %d: %q, %q", 2*i, lines[2*i], lines[2*i+1])
		}
	}
}
