/* global painted */
// hideTexts (pixels.js tells the rest) makes the chosen elements' text
// transparent, and images clear whole. (An empty list arrives as
// undefined: CDP's encoding omits empty values.) Everything is read
// before anything is written, so the page's style is recalculated once.
// A pin element inside a hidden one keeps the colours it inherits. A text
// painted by background-clip: text shows its ancestor's background:
// that background goes too. transition: none keeps the change from
// fading; !important beats the page's own rules and its animations.
function hideTexts(token, hide = [], pin = []) {
  const run = globalThis.__axfusePixels && globalThis.__axfusePixels.get(token);
  if (!run) throw new Error('the texts parents were not registered');
  const HIDE = [['color', 'transparent'], ['-webkit-text-fill-color', 'transparent'], ['text-shadow', 'none'],
    ['-webkit-text-stroke-width', '0'], ['transition', 'none'], ['caret-color', 'transparent'], ['--axfuse-hidden', '1']];
  // A ::first-line or ::first-letter rule paints over the element's own
  // style, and generated content may have a colour of its own: a sheet of
  // the document's own, keyed to the marker above, hides those too while
  // the run lasts.
  if (!run.sheet && hide.length) {
    try {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(['::first-line', '::first-letter', '::before', '::after', '::marker'].map(p => '[style*="--axfuse-hidden"]' + p).join(', ') +
        ' { color: transparent !important; -webkit-text-fill-color: transparent !important; text-shadow: none !important; -webkit-text-stroke-width: 0 !important; }');
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
      run.sheet = sheet;
    } catch (e) { /* no constructed sheets here: the pseudo elements keep their colours */ }
  }
  const SVG = [['fill', 'transparent'], ['stroke', 'transparent']];
  const PIN = ['color', '-webkit-text-fill-color', 'text-shadow', '-webkit-text-stroke-width',
    '-webkit-text-stroke-color', 'caret-color', 'fill', 'stroke'];
  const hidden = hide.map(i => run.els[i]).filter(Boolean), writes = [];
  for (const el of pin.map(i => run.els[i])) {
    if (!el || !hidden.some(h => h !== el && h.contains(el))) continue;
    const cs = getComputedStyle(el);
    writes.push([el, PIN.map(p => [p, cs.getPropertyValue(p)]).concat([['transition', 'none']])]);
  }
  // What the element paints in its colour besides its glyphs (an
  // underline drawn across its descendants' text, a border) keeps it.
  const KEEP = ['text-decoration-color', 'border-top-color', 'border-right-color', 'border-bottom-color',
    'border-left-color', 'outline-color', 'column-rule-color'];
  for (const el of hidden) {
    // An image is asked about its own pixels: it goes clear whole.
    if (el instanceof HTMLImageElement) {
      writes.push([el, [['opacity', '0'], ['transition', 'none']]]);
      continue;
    }
    // In a link of a page with :visited or :link rules the computed
    // colours may be the unvisited ones (the browser hides which links
    // are visited), so none is pinned: its glyphs go by their fill alone,
    // and its colour, with what it draws besides its glyphs (an
    // underline), stays as painted.
    if (run.visited === undefined) {
      // Whether any such rule of the document paints (rules nested in
      // @media, in other rules and the like count too; another origin's
      // sheets cannot be read).
      const paints = (rules, depth) => [...rules].some(r => depth < 8 && (/:(visited|link)(?![\w-])/i.test(r.selectorText || '') || (r.cssRules ? paints(r.cssRules, depth + 1) : false)));
      run.visited = [...document.styleSheets, ...(document.adoptedStyleSheets || [])].some(sh => { try { return paints(sh.cssRules, 0); } catch (e) { return false; } });
    }
    if (run.visited && el.closest && el.closest(':any-link') && !(el instanceof SVGElement)) {
      writes.push([el, HIDE.filter(([p]) => p !== 'color')]);
    } else {
      const cs = getComputedStyle(el);
      const keep = KEEP.map(p => [p, cs.getPropertyValue(p)]);
      writes.push([el, (el instanceof SVGElement ? HIDE.concat(SVG) : HIDE).concat(keep)]);
    }
    for (let a = el; a; a = a.parentElement) {
      const cs = getComputedStyle(a);
      if (cs.getPropertyValue('background-clip') === 'text' || cs.getPropertyValue('-webkit-background-clip') === 'text') {
        writes.push([a, [['background-image', 'none'], ['background-color', 'transparent'], ['transition', 'none']]]);
        break;
      }
    }
  }
  for (const [el, props] of writes) {
    if (!run.saved.has(el)) run.saved.set(el, el.getAttribute('style'));
    for (const [p, v] of props) el.style.setProperty(p, v, 'important');
  }
  return painted();
}
