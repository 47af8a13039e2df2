/* global attr, hasAttr, tagOf, closestOf, own, selectGets, buttonDisabledGet, textareaGets, inputGets, editable */
// What an element is, read from the DOM alone, for the viewport pass
// (viewport.js): its role as Chrome likely gives it, and fuse's signs of
// a target.
const landmarkTags = { NAV: 'navigation', MAIN: 'main', ASIDE: 'complementary', TABLE: 'table', DIALOG: 'dialog', SEARCH: 'search' };
const landmarkRoles = { banner: 1, navigation: 1, main: 1, contentinfo: 1, complementary: 1, region: 1, search: 1, form: 1, dialog: 1, alertdialog: 1, table: 1, grid: 1, list: 1, tree: 1, treegrid: 1 };
const inputRoles = { checkbox: 'checkbox', radio: 'radio', button: 'button', submit: 'button', reset: 'button', image: 'button', range: 'slider', search: 'searchbox', hidden: '' };
function clean(s) { return (s || '').replace(/\s+/g, ' ').trim().slice(0, 200); }

// draggable="true" (an enumerated attribute: ASCII case ignored) makes a
// target of an element, as fuse's signals read it from the attributes.
function draggable(el) { const v = attr(el, 'draggable'); return v !== null && v.length === 4 && v.toLowerCase() === 'true'; }
// roleOf approximates the role Chrome gives an element, for counting what
// was not fetched: an explicit role, else the tag's; a draggable element
// with neither is the role-less target fuse calls clickable.
function roleOf(el) {
  const r = attr(el, 'role');
  if (r) return r.trim().split(/\s+/)[0].toLowerCase();
  const tag = tagOf(el);
  switch (tag) {
    case 'A': return hasAttr(el, 'href') ? 'link' : '';
    case 'BUTTON': case 'SUMMARY': return 'button';
    case 'INPUT': { const t = (attr(el, 'type') || 'text').toLowerCase(); return t in inputRoles ? inputRoles[t] : 'textbox'; }
    case 'TEXTAREA': return 'textbox';
    case 'SELECT': return own(selectGets.multiple, el) || own(selectGets.size, el) > 1 ? 'listbox' : 'combobox';
    case 'OPTION': return 'option';
    case 'TR': return 'row';
    case 'LI': return 'listitem';
    case 'UL': case 'OL': return 'list';
    case 'H1': case 'H2': case 'H3': case 'H4': case 'H5': case 'H6': return 'heading';
    case 'IMG': return attr(el, 'alt') === '' ? '' : 'image';
    case 'P': return 'paragraph';
    case 'FORM': return hasAttr(el, 'aria-label') || hasAttr(el, 'aria-labelledby') ? 'form' : '';
    case 'SECTION': return hasAttr(el, 'aria-label') || hasAttr(el, 'aria-labelledby') ? 'region' : '';
    case 'HEADER': return closestOf(el, 'article,aside,main,nav,section') ? '' : 'banner';
    case 'FOOTER': return closestOf(el, 'article,aside,main,nav,section') ? '' : 'contentinfo';
  }
  return landmarkTags[tag] || (draggable(el) ? 'clickable' : '');
}

// likelyTarget is fuse's DOM-only sign of a target, counted below kept
// nodes for what was left out (a listener on a container of many targets
// delegates).
function likelyTarget(el) {
  switch (tagOf(el)) {
    case 'BUTTON': case 'INPUT': case 'SELECT': case 'TEXTAREA': return true;
    case 'A': return hasAttr(el, 'href');
  }
  const t = attr(el, 'tabindex');
  return t !== null && !t.trim().startsWith('-');
};
function nativeClick(el) {
  switch (tagOf(el)) {
    case 'A': case 'AREA': return hasAttr(el, 'href');
    case 'BUTTON': return !own(buttonDisabledGet, el);
    case 'SELECT': return !own(selectGets.disabled, el);
    case 'TEXTAREA': return !own(textareaGets.disabled, el);
    case 'LABEL': case 'SUMMARY': return true; // no disabled of their own
    case 'INPUT': return own(inputGets.type, el) !== 'hidden' && !own(inputGets.disabled, el);
    case 'OBJECT': case 'EMBED': return true;
    case 'VIDEO': case 'AUDIO': return hasAttr(el, 'controls');
  }
  return editable(el);
}
