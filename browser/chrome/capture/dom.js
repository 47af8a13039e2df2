// The DOM's own accessors and methods for the viewport pass (viewport.js
// tells the whole). DOM clobbering: a form's controls and a document's
// named elements ([LegacyOverrideBuiltIns], in every world) shadow the
// DOM's own properties: <form><input name="nodeType"></form> makes
// form.nodeType the input, <img name="elementFromPoint"> makes
// document.elementFromPoint the img. The pass reads page nodes and
// documents only through the DOM's own accessors and methods, taken here
// from this world's prototypes, which the page cannot reach.
function get(proto, name) { return Object.getOwnPropertyDescriptor(proto, name).get; }
const NodeP = Node.prototype, ElP = Element.prototype, DocP = Document.prototype;
const typeGet = get(NodeP, 'nodeType'), nodeNameGet = get(NodeP, 'nodeName'), parentGet = get(NodeP, 'parentNode'),
  firstChildGet = get(NodeP, 'firstChild'), nextSiblingGet = get(NodeP, 'nextSibling'),
  textGet = get(NodeP, 'textContent'), nodeValueGet = get(NodeP, 'nodeValue'), dataGet = get(CharacterData.prototype, 'data');
const tagGet = get(ElP, 'tagName'), nsGet = get(ElP, 'namespaceURI'), attrsGet = get(ElP, 'attributes'), shadowGet = get(ElP, 'shadowRoot'),
  firstElGet = get(ElP, 'firstElementChild'), nextElGet = get(ElP, 'nextElementSibling'),
  docFirstElGet = get(DocP, 'firstElementChild'), fragFirstElGet = get(DocumentFragment.prototype, 'firstElementChild');
const clientGets = ['clientLeft', 'clientTop', 'clientWidth', 'clientHeight'].map(p => get(ElP, p));
const scrollGets = ['scrollLeft', 'scrollTop', 'scrollWidth', 'scrollHeight'].map(p => get(ElP, p));
const [, , clientWidthGet, clientHeightGet] = clientGets, [, , scrollWidthGet, scrollHeightGet] = scrollGets;
const { getAttribute, hasAttribute, getBoundingClientRect, getClientRects, closest, matches, querySelector } = ElP;
const editableGet = get(HTMLElement.prototype, 'isContentEditable');
const docElGet = get(DocP, 'documentElement'), compatGet = get(DocP, 'compatMode'), urlGet = get(DocP, 'URL'), titleGet = get(DocP, 'title'),
  styleSheetsGet = get(DocP, 'styleSheets');
const { createRange, elementFromPoint, elementsFromPoint, getAnimations } = DocP;
const adoptedDesc = Object.getOwnPropertyDescriptor(DocP, 'adoptedStyleSheets');
const hostGet = get(ShadowRoot.prototype, 'host'), modeGet = get(ShadowRoot.prototype, 'mode');
const srSheetsGet = get(ShadowRoot.prototype, 'styleSheets'), srAdoptedDesc = Object.getOwnPropertyDescriptor(ShadowRoot.prototype, 'adoptedStyleSheets');
// Nodes.
function typeOf(n) { return typeGet.call(n); }
function nodeNameOf(n) { return nodeNameGet.call(n); }
function nameOf(n) { return nodeNameGet.call(n).toUpperCase(); }
function parentOf(n) { return parentGet.call(n); }
function flatParent(n) { return parentGet.call(n) || (typeGet.call(n) === 11 ? hostGet.call(n) : null); }
function firstChildOf(n) { return firstChildGet.call(n); }
function nextSiblingOf(n) { return nextSiblingGet.call(n); }
function textOf(n) { return textGet.call(n); }
function nodeValueOf(n) { return nodeValueGet.call(n); }
function dataOf(n) { return dataGet.call(n); }
// Elements (tagOf, shadowOf: of an element only).
function tagOf(el) { return tagGet.call(el); }
function shadowOf(el) { return shadowGet.call(el); }
function attrsOf(el) { return attrsGet.call(el); }
// firstElementChild is the document's, a fragment's (a shadow root) or an element's own.
function firstElOf(n) { const t = typeGet.call(n); return (t === 1 ? firstElGet : t === 9 ? docFirstElGet : fragFirstElGet).call(n); }
function nextElOf(el) { return nextElGet.call(el); }
function attr(el, name) { return getAttribute.call(el, name); }
function hasAttr(el, name) { return hasAttribute.call(el, name); }
function rectOf(el) { return getBoundingClientRect.call(el); }
function rectsOf(el) { return getClientRects.call(el); }
function closestOf(el, sel) { return closest.call(el, sel); }
function matchesOf(el, sel) { return matches.call(el, sel); }
function query(el, sel) { return querySelector.call(el, sel); }
function clientOf(el) { return clientGets.map(g => g.call(el)); }
function scrollOf(el) { return scrollGets.map(g => g.call(el)); }
// An element's own property by its interface's getter (the code reads
// them by tag): undefined where the element is not of that interface
// (an element named so in another namespace), as a plain read gives.
function own(g, el) { try { return g.call(el); } catch (e) { return undefined; } }
const htmlNS = 'http://www.w3.org/1999/xhtml';
function editable(el) { return nsGet.call(el) === htmlNS && own(editableGet, el) === true; }
const inputGets = { type: get(HTMLInputElement.prototype, 'type'), value: get(HTMLInputElement.prototype, 'value'),
  checked: get(HTMLInputElement.prototype, 'checked'), disabled: get(HTMLInputElement.prototype, 'disabled') };
const textareaGets = { value: get(HTMLTextAreaElement.prototype, 'value'), disabled: get(HTMLTextAreaElement.prototype, 'disabled') };
const selectGets = { multiple: get(HTMLSelectElement.prototype, 'multiple'), size: get(HTMLSelectElement.prototype, 'size'), disabled: get(HTMLSelectElement.prototype, 'disabled') };
const buttonDisabledGet = get(HTMLButtonElement.prototype, 'disabled'), optionSelectedGet = get(HTMLOptionElement.prototype, 'selected');
const frameGets = { IFRAME: [get(HTMLIFrameElement.prototype, 'contentDocument'), get(HTMLIFrameElement.prototype, 'contentWindow')],
  FRAME: [get(HTMLFrameElement.prototype, 'contentDocument'), get(HTMLFrameElement.prototype, 'contentWindow')] };
// Documents and shadow roots.
function docElOf(doc) { return docElGet.call(doc); }
function compatOf(doc) { return compatGet.call(doc); }
function urlOf(doc) { return urlGet.call(doc); }
function titleOf(doc) { return titleGet.call(doc); }
function hostOf(sr) { return hostGet.call(sr); }
function modeOf(sr) { return modeGet.call(sr); }
