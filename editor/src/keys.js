// Curve and gradient keys as the modules take them (docs/design/modules.md, type `keys`): a list
// of [t, value...] with t in 0..1 — a curve's [t, v], a gradient's [t, r, g, b] — and the
// arithmetic the drawn editors need: where a key sits in the drawing, what a drag makes of it,
// keys inserted (on the line the keys already draw) and removed, colours to and from the
// colour picker's #rrggbb. Pure functions: the page's widgets (KeysEditor.jsx) draw with them
// and tests/editor/document_test.mjs holds them to their arithmetic. Whatever they produce is
// sent to the server and compiled like any other edit: the server is the judge of a key list.

// Rounded to 3 decimals: a dragged key lands on a value an author can read in the source.
export function round3(x) {
  return Math.round(x * 1000) / 1000;
}

function clamp(x, lo, hi) {
  return Math.min(hi, Math.max(lo, x));
}

// A list of keys, or null when `keys` is no list of number lists (then the page edits it as
// text, and the compiler says what is wrong).
export function readKeys(keys) {
  if (!Array.isArray(keys) || keys.length === 0) return null;
  for (const k of keys) if (!Array.isArray(k) || k.length < 2 || !k.every((v) => typeof v === 'number')) return null;
  return keys.map((k) => k.slice());
}

// The value range a curve is drawn over: 0..1, widened to hold every key.
export function curveRange(keys) {
  let lo = 0;
  let hi = 1;
  for (const k of keys) {
    lo = Math.min(lo, k[1]);
    hi = Math.max(hi, k[1]);
  }
  return { lo, hi };
}

// A key's place in a box {width, height, lo, hi} (SVG coordinates: y grows downward).
export function keyToPoint(key, box) {
  const span = box.hi - box.lo || 1;
  return { x: key[0] * box.width, y: box.height - ((key[1] - box.lo) / span) * box.height };
}

// The [t, v] a point of the box stands for: t clamped to 0..1, v to the box's range.
export function pointToKey(point, box) {
  const span = box.hi - box.lo || 1;
  const t = clamp(point.x / box.width, 0, 1);
  const v = clamp(box.lo + ((box.height - point.y) / box.height) * span, box.lo, box.hi);
  return [round3(t), round3(v)];
}

// The keys' values at t, linearly between the keys around it (held flat outside them).
export function sampleKeys(keys, t) {
  const sorted = keys.slice().sort((a, b) => a[0] - b[0]);
  if (t <= sorted[0][0]) return sorted[0].slice(1);
  const last = sorted[sorted.length - 1];
  if (t >= last[0]) return last.slice(1);
  for (let i = 1; i < sorted.length; ++i) {
    const a = sorted[i - 1];
    const b = sorted[i];
    if (t <= b[0]) {
      const f = b[0] === a[0] ? 0 : (t - a[0]) / (b[0] - a[0]);
      return a.slice(1).map((v, c) => v + (b[c + 1] - v) * f);
    }
  }
  return last.slice(1);
}

// A key added at t on the line the keys draw (so the effect looks the same until it is moved);
// returns {keys, index} with the keys in t order and the new key's index.
export function insertKey(keys, t) {
  const at = round3(clamp(t, 0, 1));
  const key = [at, ...sampleKeys(keys, at).map(round3)];
  const next = [...keys.map((k) => k.slice()), key].sort((a, b) => a[0] - b[0]);
  return { keys: next, index: next.indexOf(key) };
}

// Key `index` removed; a list keeps at least one key (the compiler refuses an empty one).
export function removeKey(keys, index) {
  if (keys.length <= 1) return keys.map((k) => k.slice());
  return keys.filter((_, i) => i !== index).map((k) => k.slice());
}

// Key `index` moved to t (and, for a curve, to value v; a gradient's colour is kept), the list
// kept in t order: {keys, index} with the moved key's new index.
export function moveKey(keys, index, t, v) {
  const moved = keys[index].slice();
  moved[0] = round3(clamp(t, 0, 1));
  if (v !== undefined) moved[1] = round3(v);
  const next = keys.map((k, i) => (i === index ? moved : k.slice())).sort((a, b) => a[0] - b[0]);
  return { keys: next, index: next.indexOf(moved) };
}

// Key `index`'s colour (a gradient key's r, g, b) set to `rgb`.
export function setKeyColor(keys, index, rgb) {
  return keys.map((k, i) => (i === index ? [k[0], ...rgb.map(round3), ...k.slice(4)] : k.slice()));
}

// [r, g, b] in 0..1 as the colour picker's #rrggbb (values over 1 shown as 1).
export function colorToHex(rgb) {
  return '#' + rgb.slice(0, 3).map((c) => Math.round(clamp(c, 0, 1) * 255).toString(16).padStart(2, '0')).join('');
}

export function hexToColor(hex) {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return null;
  return [1, 2, 3].map((i) => round3(parseInt(m[i], 16) / 255));
}

// The CSS linear-gradient a gradient's keys draw (left: t = 0).
export function gradientCss(keys) {
  const stops = keys
    .slice()
    .sort((a, b) => a[0] - b[0])
    .map((k) => `${colorToHex(k.slice(1, 4))} ${(k[0] * 100).toFixed(1)}%`);
  return `linear-gradient(to right, ${stops.join(', ')})`;
}
