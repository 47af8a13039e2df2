// load.cjs loads the page scripts axfuse sends to the browser (plain
// scripts, not modules) into one fresh vm context, the way the Go side
// joins them, so that `node --test` can call their pure functions.
//
//   const { load } = require('<this file>');
//   const page = load(['browser/chrome/capture/geometry.js'], { /* globals */ });
//   page.get('someFunction')(...);
//
// Top-level function declarations become properties of the context;
// get(name) also reaches top-level const and let bindings.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const root = path.resolve(__dirname, '../../..');

function load(files, globals = {}) {
  const ctx = vm.createContext({ ...globals });
  for (const f of files) {
    const file = path.resolve(root, f);
    vm.runInContext(fs.readFileSync(file, 'utf8'), ctx, { filename: file });
  }
  return { ctx, get: (name) => vm.runInContext(name, ctx) };
}

module.exports = { load, root };
