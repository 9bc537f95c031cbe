// editor.document: the page's document helpers (editor/src/document.js) under node's test runner:
// compile-error pointers mapped back to the module, parameter or raw node they name, expanded
// node ids to their module, and documents formatted one module a line and read back unchanged.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { formatDocument, locateError, nodeModule } from '../../editor/src/document.js';

test('a module pointer names the stage, the module and the parameter', () => {
  assert.deepEqual(locateError('/modules/update/1/drag'), { stage: 'update', index: 1, param: 'drag' });
  assert.deepEqual(locateError('/modules/initialize/0'), { stage: 'initialize', index: 0, param: null });
  assert.deepEqual(locateError('/modules/initialize/2/direction/1'), { stage: 'initialize', index: 2, param: 'direction' });
});

test('a raw node pointer names its graph and index', () => {
  assert.deepEqual(locateError('/update/nodes/3/inputs/b'), { graph: 'update', node: 3 });
  assert.deepEqual(locateError('/init/nodes/0'), { graph: 'init', node: 0 });
});

test('pointers to nothing the page draws map to nothing', () => {
  for (const where of ['', '/', '/modules/later', '/modules/update/x', '/render/blend', 'update[12]', undefined])
    assert.equal(locateError(where), null, String(where));
});

test('expanded node ids name their module', () => {
  assert.deepEqual(nodeModule('i2_life'), { stage: 'initialize', index: 2 });
  assert.deepEqual(nodeModule('u10_fall'), { stage: 'update', index: 10 });
  assert.equal(nodeModule('get_velocity'), null);
  assert.equal(nodeModule('len'), null);
});

test('every preset formats to the same document, one module a line', () => {
  const dir = new URL('../../effects/', import.meta.url);
  for (const name of ['fire.json', 'smoke.json', 'rain.json', 'bonfire_flame.json']) {
    const doc = JSON.parse(readFileSync(new URL(name, dir), 'utf8'));
    const text = formatDocument(doc);
    // The same values (JSON.stringify writes -0 as 0, as the page saves it).
    assert.equal(JSON.stringify(JSON.parse(text)), JSON.stringify(doc), name);
    const count = Object.values(doc.modules).reduce((n, list) => n + list.length, 0);
    const moduleLines = text.split('\n').filter((l) => l.trim().startsWith('{"module"'));
    assert.equal(moduleLines.length, count, name);
  }
});

// The drawn curve and gradient editors' arithmetic (editor/src/keys.js).
import {
  colorToHex,
  curveRange,
  gradientCss,
  hexToColor,
  insertKey,
  keyToPoint,
  moveKey,
  pointToKey,
  readKeys,
  removeKey,
  sampleKeys,
  setKeyColor,
} from '../../editor/src/keys.js';

const smokeCurve = [[0.0, 0.0], [0.15, 1.0], [0.6, 0.8], [1.0, 0.0]];
const fireGradient = [[0.0, 1.0, 0.95, 0.8], [0.25, 1.0, 0.7, 0.25], [0.6, 0.9, 0.3, 0.05], [1.0, 0.35, 0.08, 0.02]];

test('keys are read only when they are lists of numbers', () => {
  assert.deepEqual(readKeys(smokeCurve), smokeCurve);
  for (const bad of [[], 'x', [[0]], [[0, 'a']], [3], null]) assert.equal(readKeys(bad), null, JSON.stringify(bad));
});

test('a key and its point in the drawing are each other\'s', () => {
  const box = { width: 200, height: 100, ...curveRange(smokeCurve) };
  assert.deepEqual(box, { width: 200, height: 100, lo: 0, hi: 1 });
  assert.deepEqual(keyToPoint([0.5, 0.25], box), { x: 100, y: 75 });
  assert.deepEqual(pointToKey({ x: 100, y: 75 }, box), [0.5, 0.25]);
  // Dragged past the edges: t and the value stay in the box.
  assert.deepEqual(pointToKey({ x: -30, y: 140 }, box), [0, 0]);
  assert.deepEqual(pointToKey({ x: 260, y: -5 }, box), [1, 1]);
  // A key over 1 widens the range it is drawn over.
  assert.deepEqual(curveRange([[0, -0.5], [1, 2]]), { lo: -0.5, hi: 2 });
});

test('an inserted key lies on the line, so the effect is unchanged until it is moved', () => {
  assert.deepEqual(sampleKeys(smokeCurve, 0.375), [0.9]);
  const r = insertKey(smokeCurve, 0.375);
  assert.equal(r.index, 2);
  assert.deepEqual(r.keys, [[0, 0], [0.15, 1], [0.375, 0.9], [0.6, 0.8], [1, 0]]);
  const g = insertKey(fireGradient, 0.125);
  assert.deepEqual(g.keys[1], [0.125, 1, 0.825, 0.525]);
  assert.deepEqual(smokeCurve[2], [0.6, 0.8], 'the keys given are not changed');
});

test('a moved key keeps the list in t order', () => {
  const r = moveKey(smokeCurve, 1, 0.7, 0.5);
  assert.deepEqual(r.keys, [[0, 0], [0.6, 0.8], [0.7, 0.5], [1, 0]]);
  assert.equal(r.index, 2);
  // A gradient key moves along t only: its colour is kept.
  const g = moveKey(fireGradient, 3, 0.1);
  assert.deepEqual(g.keys[1], [0.1, 0.35, 0.08, 0.02]);
  assert.equal(g.index, 1);
});

test('removing keeps at least one key', () => {
  assert.deepEqual(removeKey(smokeCurve, 1), [[0, 0], [0.6, 0.8], [1, 0]]);
  assert.deepEqual(removeKey([[0.5, 1]], 0), [[0.5, 1]]);
});

test('colours go to the picker and back', () => {
  assert.equal(colorToHex([1, 0.5, 0]), '#ff8000');
  assert.equal(colorToHex([2, -1, 0.25]), '#ff0040');
  assert.deepEqual(hexToColor('#ff8000'), [1, 0.502, 0]);
  assert.equal(hexToColor('red'), null);
  assert.deepEqual(setKeyColor(fireGradient, 0, [0, 0, 1])[0], [0, 0, 0, 1]);
  assert.equal(gradientCss([[1, 0, 0, 1], [0, 1, 0, 0]]), 'linear-gradient(to right, #ff0000 0.0%, #0000ff 100.0%)');
});
