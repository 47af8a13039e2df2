package keys

// Examples are the key names and chords every help text shows, in this
// order: the MCP tools' words, act's verb table, axfuse act --help. Each
// frames them in its own words (TestExamplesParse holds each to Parse).
const Examples = "Enter, Tab, Shift+Tab, ArrowDown, Control+A"

// ArgHelp says what a key argument is, for an argument's description.
const ArgHelp = "a key or chord in Playwright's names: " + Examples + ", a single character"
